terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}

variable "name" {
  type = string
}

resource "cairnfw_file" "f" {
  name    = var.name
  content = "written by ${var.name}"
}

output "id" {
  value = cairnfw_file.f.id
}
