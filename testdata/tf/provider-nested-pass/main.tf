terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

# An aliased configuration passed down two levels under other names
# (east, then given, then target), the middle module using the root's
# default configuration. Data sources read the files back from where
# each must be.
provider "cairnfw" {
  dir = "store"
}

provider "cairnfw" {
  alias = "east"
  dir   = "store/east"
}

module "middle" {
  source    = "./modules/middle"
  providers = { cairnfw = cairnfw, cairnfw.given = cairnfw.east }
}

data "cairnfw_file" "leaf" {
  provider = cairnfw.east
  name     = module.middle.ids[0]
}

data "cairnfw_file" "middle" {
  name = module.middle.ids[1]
}

output "contents" {
  value = [data.cairnfw_file.leaf.content, data.cairnfw_file.middle.content]
}
