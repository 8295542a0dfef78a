# Provider references: the local name foo stands for cairn/cairnfw, whose
# resource types are cairnfw_*, so they choose it with provider = foo (no
# alias) or foo.west. Module m is passed foo.west as its cairnfw; module n
# passes nothing and inherits the default configuration of cairn/cairnfw,
# the one its caller names foo. The change edits the contents.
terraform {
  required_providers {
    foo = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

variable "content" {
  default = "one"
}

provider "foo" {
  dir = "store"
}

provider "foo" {
  alias = "west"
  dir   = "store/west"
}

resource "cairnfw_file" "a" {
  provider = foo
  name     = "a"
  content  = var.content
}

resource "cairnfw_file" "w" {
  provider = foo.west
  name     = "w"
  content  = "west ${var.content}"
}

module "m" {
  source    = "./m"
  providers = { cairnfw = foo.west }
  content   = var.content
}

module "n" {
  source  = "./n"
  content = var.content
}

output "sizes" {
  value = [cairnfw_file.a.size, cairnfw_file.w.size, module.m.size, module.n.size]
}
