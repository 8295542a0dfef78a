# The configuration that imports.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

locals {
  root   = { a = "imp-a", b = "imp-b" }
  module = ["imp-m1", "imp-m2"]
}

resource "cairnfw_file" "seed" {
  name    = "seed"
  content = "seed"
}

resource "cairnfw_file" "root" {
  for_each = local.root
  name     = each.value
  content  = "imported"
}

import {
  for_each = local.root
  to       = cairnfw_file.root[each.key]
  id       = each.value
}

module "files" {
  source = "./modules/files"
  names  = toset(local.module)
}

import {
  for_each = toset(local.module)
  to       = module.files.cairnfw_file.f[each.value]
  id       = each.value
}

output "seed" {
  value = cairnfw_file.seed.name
}
