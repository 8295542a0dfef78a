terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

resource "cairnfw_file" "note" {
  name    = "note"
  content = "hello"
}

output "size" {
  value = cairnfw_file.note.size
}
