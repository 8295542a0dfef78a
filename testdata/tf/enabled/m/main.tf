terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}

resource "cairnfw_file" "inner" {
  name    = "inner"
  content = "inner"
}

output "size" {
  value = cairnfw_file.inner.size
}
