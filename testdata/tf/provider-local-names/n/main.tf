terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}

variable "content" {
  type = string
}

resource "cairnfw_file" "n" {
  name    = "n"
  content = "n ${var.content}!!"
}

output "size" {
  value = cairnfw_file.n.size
}
