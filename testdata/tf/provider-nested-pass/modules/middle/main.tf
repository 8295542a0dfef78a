terraform {
  required_providers {
    cairnfw = {
      source                = "cairn/cairnfw"
      configuration_aliases = [cairnfw.given]
    }
  }
}

module "leaf" {
  source    = "../leaf"
  providers = { cairnfw.target = cairnfw.given }
}

resource "cairnfw_file" "f" {
  name    = "middle"
  content = "middle"
}

output "ids" {
  value = [module.leaf.id, cairnfw_file.f.id]
}
