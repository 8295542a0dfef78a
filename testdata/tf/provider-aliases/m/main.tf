terraform {
  required_providers {
    cairnfw = {
      source                = "cairn/cairnfw"
      configuration_aliases = [cairnfw.east]
    }
  }
}

variable "content" {
  type = string
}

resource "cairnfw_file" "default" {
  name    = "default"
  content = "default ${var.content}"
}

resource "cairnfw_file" "east" {
  provider = cairnfw.east
  name     = "east"
  content  = "east ${var.content}"
}

output "names" {
  value = { default = cairnfw_file.default.id, east = cairnfw_file.east.id }
}
