terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}

variable "content" {
  type = string
}

resource "cairnfw_file" "m" {
  name    = "m"
  content = "m ${var.content}!"
}

output "size" {
  value = cairnfw_file.m.size
}
