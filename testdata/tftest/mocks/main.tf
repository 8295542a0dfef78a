terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

# The mocked provider's configuration is never used: the folder does
# not exist.
provider "cairnfw" {
  dir = "no-such-folder"
}

resource "cairnfw_file" "note" {
  name    = "note"
  content = "hello"
}

resource "cairnfw_file" "other" {
  name    = "other"
  content = "x"
}

data "cairnfw_file" "read" {
  name = "note"
}

output "size" {
  value = cairnfw_file.note.size
}

output "id" {
  value = cairnfw_file.note.id
}

output "content" {
  value = data.cairnfw_file.read.content
}
