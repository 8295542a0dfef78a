terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

# import blocks with for_each into the resources with for_each of the
# instances of a module call with for_each (change/): three imports,
# and nothing else.
provider "cairnfw" {
  dir = "store"
}

resource "terraform_data" "seed" {
  input = "seed"
}

output "seed" {
  value = terraform_data.seed.output
}
