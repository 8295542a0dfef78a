terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

# Writing into a folder that does not exist fails: only an override, or
# a mock of this configuration, lets its files be planned and applied,
# and its data source read.
provider "cairnfw" {
  alias = "nowhere"
  dir   = "no-such-folder"
}

resource "cairnfw_file" "real" {
  name    = "real"
  content = "hello"
}

resource "cairnfw_file" "fake" {
  provider = cairnfw.nowhere
  name     = "fake"
  content  = "hello"
}

data "cairnfw_file" "fake" {
  provider = cairnfw.nowhere
  name     = "fake"
}

module "site" {
  source = "./site"
  providers = {
    cairnfw = cairnfw.nowhere
  }
}

output "site_size" {
  value = module.site.size
}

output "fake_size" {
  value = cairnfw_file.fake.size
}
