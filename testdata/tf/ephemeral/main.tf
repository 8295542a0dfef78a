# Ephemeral variables and module outputs: never in the state or the
# plan. They configure a provider, pass through local values to an
# ephemeral module input and out of an ephemeral output, and ephemeralasnull
# makes what is left of them null.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

variable "dir" {
  type      = string
  default   = "store"
  ephemeral = true
}

variable "token" {
  type      = string
  default   = "abc"
  ephemeral = true
}

provider "cairnfw" {
  dir = var.dir
}

locals {
  token = "${var.token}-x"
}

module "m" {
  source = "./m"
  token  = local.token
}

resource "cairnfw_file" "f" {
  name    = "f"
  content = coalesce(ephemeralasnull(module.m.upper), module.m.kept, "none")
}

output "content" {
  value = cairnfw_file.f.content
}

output "sensitive" {
  value = issensitive(var.token)
}
