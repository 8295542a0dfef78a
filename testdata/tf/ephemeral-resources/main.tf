# Ephemeral resources of HashiCorp's providers: random_password's result
# configures the tls provider's proxy, tls_private_key is opened twice,
# and neither reaches the state.
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = ">= 3.7" }
    tls    = { source = "hashicorp/tls", version = ">= 4.0" }
  }
}

variable "length" {
  type    = number
  default = 20
}

ephemeral "random_password" "proxy" {
  length  = var.length
  special = false
}

ephemeral "tls_private_key" "session" {
  count     = 2
  algorithm = "ED25519"
}

locals {
  proxy_password = ephemeral.random_password.proxy.result
}

provider "tls" {
  proxy {
    url      = "http://proxy.invalid:3128"
    username = "cairn"
    password = local.proxy_password
  }
}

resource "tls_private_key" "kept" {
  algorithm  = "ECDSA"
  depends_on = [ephemeral.tls_private_key.session]
}

output "algorithm" {
  value = tls_private_key.kept.algorithm
}
