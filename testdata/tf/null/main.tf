# hashicorp/null: counted resources whose triggers replace them, one
# that depends on another's ID, and lifecycle options.
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "~> 3.2" }
  }
}

variable "servers" {
  type    = list(string)
  default = ["a", "b", "c"]
}

variable "release" {
  type    = string
  default = "v1"
}

resource "null_resource" "server" {
  count = length(var.servers)
  triggers = {
    name    = var.servers[count.index]
    release = var.release
  }
}

resource "null_resource" "lb" {
  triggers = {
    servers = join(",", null_resource.server[*].triggers.name)
  }

  lifecycle {
    create_before_destroy = true
  }
}

resource "null_resource" "pinned" {
  triggers = {
    release = var.release
  }

  lifecycle {
    ignore_changes = [triggers]
  }
}

output "names" {
  value = null_resource.server[*].triggers.name
}

output "lb" {
  value = null_resource.lb.triggers
}
