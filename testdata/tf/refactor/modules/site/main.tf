terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}

resource "cairnfw_file" "s" {
  name    = "s"
  content = "s"
}

output "s" {
  value = cairnfw_file.s.name
}
