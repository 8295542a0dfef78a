terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

resource "terraform_data" "seed" {
  input = "seed"
}

locals {
  files = { x = ["x-1", "x-2"], y = ["y-1"] }
}

module "m" {
  source   = "./m"
  for_each = local.files
  names    = each.value
}

import {
  for_each = toset(local.files.x)
  to       = module.m["x"].cairnfw_file.f[each.key]
  id       = each.key
}

import {
  for_each = toset(local.files.y)
  to       = module.m["y"].cairnfw_file.f[each.value]
  id       = each.value
}

output "seed" {
  value = terraform_data.seed.output
}
