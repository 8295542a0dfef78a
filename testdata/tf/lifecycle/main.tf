# Lifecycle and data: a data source of a provider, conditions,
# replace_triggered_by, create_before_destroy, ignore_changes, a
# sensitive variable kept sensitive through a resource to an output.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

variable "version_tag" {
  type    = string
  default = "1"
}

variable "motd" {
  type    = string
  default = "hello"
}

variable "password" {
  type      = string
  default   = "hunter2"
  sensitive = true
}

resource "cairnfw_file" "config" {
  name    = "config"
  content = "version ${var.version_tag}"
  secret  = var.password

  lifecycle {
    precondition {
      condition     = length(var.version_tag) > 0
      error_message = "A version is needed."
    }
    postcondition {
      condition     = self.size > 0
      error_message = "The file is empty."
    }
  }
}

data "cairnfw_file" "config" {
  name = cairnfw_file.config.name
}

resource "terraform_data" "release" {
  input = data.cairnfw_file.config.content

  lifecycle {
    replace_triggered_by = [cairnfw_file.config]
  }
}

resource "cairnfw_file" "motd" {
  name    = "motd"
  content = var.motd

  lifecycle {
    create_before_destroy = true
  }
}

resource "cairnfw_file" "notes" {
  name    = "notes"
  content = "first ${var.motd}"

  lifecycle {
    ignore_changes = [content]
  }
}

output "read" {
  value = data.cairnfw_file.config.content
}

output "password" {
  value     = cairnfw_file.config.secret
  sensitive = true
}

output "release" {
  value = terraform_data.release.output
}
