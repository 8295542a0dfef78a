terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

# A module call with for_each given an aliased configuration as its
# default; change.tfvars adds an instance.
variable "names" {
  type    = set(string)
  default = ["a", "b"]
}

provider "cairnfw" {
  dir = "store"
}

provider "cairnfw" {
  alias = "west"
  dir   = "store/west"
}

module "m" {
  source    = "./m"
  for_each  = var.names
  providers = { cairnfw = cairnfw.west }
  name      = each.key
}

data "cairnfw_file" "f" {
  provider = cairnfw.west
  for_each = module.m
  name     = each.value.id
}

output "contents" {
  value = { for k, d in data.cairnfw_file.f : k => d.content }
}
