# The refactored configuration.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

module "one" {
  source = "./modules/one"
}

module "two" {
  source = "./modules/two"
}

module "web" {
  source = "./modules/site"
}

moved {
  from = module.site
  to   = module.web
}

module "keyed" {
  source   = "./modules/keyed"
  for_each = toset(["y"])
}

resource "cairnfw_file" "inner" {
  name    = "inner"
  content = "inner"
}

resource "cairnfw_file" "counted" {
  for_each = toset(["c"])
  name     = "counted"
  content  = "counted"
}

resource "cairnfw_file" "imported" {
  for_each = toset(values(local.imports))
  name     = each.key
  content  = "imported"
}

locals {
  imports = { first = "imp1", second = "imp2" }
}

moved {
  from = cairnfw_file.a
  to   = module.two.cairnfw_file.a
}

moved {
  from = module.one.cairnfw_file.inner
  to   = cairnfw_file.inner
}

moved {
  from = module.keyed["x"].cairnfw_file.k
  to   = module.keyed["y"].cairnfw_file.k
}

moved {
  from = cairnfw_file.counted[0]
  to   = cairnfw_file.counted["c"]
}

removed {
  from = module.legacy

  lifecycle {
    destroy = false
  }
}

removed {
  from = cairnfw_file.old

  lifecycle {
    destroy = false
  }
}

import {
  for_each = local.imports
  to       = cairnfw_file.imported[each.value]
  id       = "${each.value}"
}

import {
  to = module.two.cairnfw_file.imp3
  id = "imp3"
}
