variable "name" {
  type = string
}

resource "cairnfw_file" "f" {
  name    = var.name
  content = "inner ${var.name}"
}

output "id" {
  value = cairnfw_file.f.id
}
