# Variables with optional object attributes, locals, for_each, count,
# terraform_data, a local module and two providers, one written with the
# plugin framework (protocol 6) and one with the legacy SDK (protocol 5).
terraform {
  required_version = ">= 1.5"
  required_providers {
    cairnfw  = { source = "cairn/cairnfw", version = "~> 1.0" }
    cairnsdk = { source = "cairn/cairnsdk", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

provider "cairnsdk" {
  dir = "store"
}

locals {
  prefix = "site-${var.env}"
  pages  = { for name, p in var.pages : name => merge(p, { title = upper(name) }) }
}

resource "cairnfw_file" "page" {
  for_each = local.pages
  name     = "${local.prefix}-${each.key}"
  content  = "${each.value.title}: ${each.value.body}"

  dynamic "tag" {
    for_each = each.value.tags
    content {
      key   = tag.value
      value = each.key
    }
  }
}

resource "cairnsdk_item" "copy" {
  count = var.copies
  name  = "copy-${count.index}"
  value = cairnfw_file.page["home"].content
}

resource "terraform_data" "settings" {
  input            = { env = var.env, pages = keys(local.pages), copies = var.copies }
  triggers_replace = var.generation
}

module "site" {
  source  = "./modules/site"
  name    = local.prefix
  sizes   = [for p in cairnfw_file.page : p.size]
  replace = var.env
}
