terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

variable "names" {
  type = set(string)
}

resource "cairnfw_file" "f" {
  for_each = var.names
  name     = each.key
  content  = "imported"
}
