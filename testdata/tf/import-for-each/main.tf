# import blocks with for_each, in change/: into a resource with for_each
# at the root, and into a module's resource with for_each. The plan
# imports four files and creates, updates or deletes nothing.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

resource "cairnfw_file" "seed" {
  name    = "seed"
  content = "seed"
}

output "seed" {
  value = cairnfw_file.seed.name
}
