terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}

resource "cairnfw_file" "inner" {
  name    = "inner"
  content = "inner"
}

resource "cairnfw_file" "stays" {
  name    = "stays"
  content = "stays"
}

output "inner" {
  value = cairnfw_file.inner.name
}
