terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}

resource "cairnfw_file" "b" {
  name    = "b"
  content = "b"
}

output "b" {
  value = cairnfw_file.b.name
}
