terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

# There is no file "missing" to read: only an override answers for the
# data source.
provider "cairnfw" {
  dir = "store"
}

data "cairnfw_file" "read" {
  name = "missing"
}

resource "cairnfw_file" "copy" {
  name    = "copy"
  content = data.cairnfw_file.read.content
}

output "content" {
  value = data.cairnfw_file.read.content
}
