# The configuration changed: counted has enabled, kept is gone, and
# what var.on enables is off.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

variable "on" {
  type    = bool
  default = false
}

resource "cairnfw_file" "toggled" {
  name    = "toggled"
  content = "on"

  lifecycle {
    enabled = var.on
  }
}

resource "cairnfw_file" "counted" {
  name    = "counted"
  content = "counted"

  lifecycle {
    enabled = true
  }
}

module "m" {
  source = "./m"

  lifecycle {
    enabled = var.on
  }
}

output "toggled" {
  value = try(cairnfw_file.toggled.content, "off")
}

output "inner" {
  value = try(module.m.size, 0)
}
