terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

# A module call given an aliased configuration as its default
# (providers = { cairnfw = cairnfw.west }), and one without a providers
# map, which takes its parent's default configuration. Data sources
# read each file back from the folder it must be in.
provider "cairnfw" {
  dir = "store"
}

provider "cairnfw" {
  alias = "west"
  dir   = "store/west"
}

module "west" {
  source    = "./m"
  providers = { cairnfw = cairnfw.west }
  name      = "west"
}

module "inherits" {
  source = "./m"
  name   = "inherits"
}

data "cairnfw_file" "west" {
  provider = cairnfw.west
  name     = module.west.id
}

data "cairnfw_file" "inherits" {
  name = module.inherits.id
}

output "contents" {
  value = [data.cairnfw_file.west.content, data.cairnfw_file.inherits.content]
}
