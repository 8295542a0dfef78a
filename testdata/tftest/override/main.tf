terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

# Writing into a folder that does not exist fails: only an override
# lets the fake file be planned and applied.
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

output "fake_size" {
  value = cairnfw_file.fake.size
}
