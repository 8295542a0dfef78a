terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

variable "names" {
  type = list(string)
}

resource "cairnfw_file" "f" {
  for_each = toset(var.names)
  name     = each.key
  content  = "imported"
}

output "names" {
  value = sort([for f in cairnfw_file.f : f.name])
}
