terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

# Writing into a folder that does not exist fails: only an override of
# the module keeps its file from being planned and applied.
provider "cairnfw" {
  dir = "no-such-folder"
}

module "site" {
  source = "./site"
  name   = "index"
  pages  = 2
}

resource "terraform_data" "link" {
  input = module.site.path
}

output "path" {
  value = module.site.path
}

output "size" {
  value = module.site.size
}

# Not overridden: only an override of its resource lets it apply.
module "extra" {
  source = "./site"
  name   = "extra"
  pages  = 1
}

output "extra_size" {
  value = module.extra.size
}
