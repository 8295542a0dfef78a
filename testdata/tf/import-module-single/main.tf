# An import block (change/) into the resource of a module called from a
# module: one import, nothing else.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

resource "terraform_data" "seed" {
  input = "seed"
}

output "seed" {
  value = terraform_data.seed.output
}
