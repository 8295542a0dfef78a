# A module given two configurations of one provider: its default one,
# and the caller's west configuration under the alias it declares in
# configuration_aliases (cairnfw.east). Data sources read each file back
# (by ID, known once applied) from the folder its configuration names, so
# a file written through the wrong configuration fails the read. The
# change edits the contents.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

variable "content" {
  default = "one"
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
  providers = { cairnfw = cairnfw, cairnfw.east = cairnfw.west }
  content   = var.content
}

data "cairnfw_file" "default" {
  name = module.m.names.default
}

data "cairnfw_file" "east" {
  provider = cairnfw.west
  name     = module.m.names.east
}

output "contents" {
  value = [data.cairnfw_file.default.content, data.cairnfw_file.east.content]
}
