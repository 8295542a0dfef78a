# A folder of .tf files is a Terraform configuration: its *.tf and
# *.tf.json files are the program, *.hcl files and the lock file are not,
# override files merge into the others, and the variables take their
# values from .tfvars files under the stack's configuration.
terraform {
  required_version = ">= 1.5, < 2.0"

  # OpenTofu's state encryption: ignored, with a warning.
  encryption {
    key_provider "pbkdf2" "main" {
      passphrase = "a passphrase of sixteen characters or more"
    }
  }
}

variable "name" {
  type = string
}

variable "size" {
  type    = number
  default = 1
}

variable "from_config" {
  type    = string
  default = "default"
}

variable "zones" {
  type    = list
  default = ["a"]
}

variable "labels" {
  type    = map
  default = {}
}

locals {
  prefix = "main"
  suffix = "kept"
}

resource "test_widget" "w" {
  display_name = "${local.prefix}-${var.name}-${local.suffix}"
  max_size     = var.size
  extra_tags   = var.labels

  ingress_rules {
    from_port = 1
  }
  ingress_rules {
    from_port = 2
  }

  lifecycle {
    create_before_destroy = true
    ignore_changes        = [max_size]
  }
}

output "zones" {
  value = var.zones
}

output "from_config" {
  value = var.from_config
}
