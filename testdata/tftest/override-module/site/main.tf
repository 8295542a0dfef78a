terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}

variable "name" {
  type = string
}

variable "pages" {
  type = number
}

resource "cairnfw_file" "page" {
  name    = var.name
  content = "page"
}

output "path" {
  value = "/${cairnfw_file.page.name}.html"
}

output "size" {
  value = cairnfw_file.page.size
}
