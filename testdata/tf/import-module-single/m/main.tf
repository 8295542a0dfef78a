terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}

resource "cairnfw_file" "f" {
  name    = "single"
  content = "imported"
}

output "name" {
  value = cairnfw_file.f.name
}
