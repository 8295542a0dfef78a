# OpenTofu's lifecycle arguments: enabled makes a resource or a module
# one instance or none (null then), and takes over what count = 0 or 1
# made; destroy = false forgets a resource instead of deleting it. The
# change turns a count into enabled (a move), disables a resource and a
# module (deletes), and drops a resource that must not be destroyed (a
# forget).
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
  default = true
}

resource "cairnfw_file" "toggled" {
  name    = "toggled"
  content = "on"

  lifecycle {
    enabled = var.on
  }
}

resource "cairnfw_file" "counted" {
  count   = 1
  name    = "counted"
  content = "counted"
}

resource "cairnfw_file" "kept" {
  name    = "kept"
  content = "kept"

  lifecycle {
    destroy = false
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
