# A secret that would become part of a URN or an ID is refused where it is
# written: for_each over a sensitive value, or over a set with a
# sensitive element, a sensitive logical name and an import block with a
# sensitive ID.
variable "tags" {
  type      = map(string)
  sensitive = true
}

variable "token" {
  type      = string
  sensitive = true
}

resource "test_thing" "by_map" {
  for_each = var.tags
}

resource "test_thing" "by_set" {
  for_each = toset([var.token])
}

# A list is refused before its elements are looked at: for_each takes a
# map or a set.
resource "test_thing" "by_list" {
  for_each = ["plain", var.token]
}

resource "test_thing" "by_keys" {
  for_each = { for k, v in var.tags : k => v }
}

data "test_get_thing" "lookup" {
  for_each = var.tags
  name     = each.key
}

module "mod" {
  source   = "./mod"
  for_each = var.tags
}

resource "test_thing" "named" {
  pulumi {
    name = "thing-${var.token}"
  }
}

resource "test_thing" "imported" {}

import {
  to = test_thing.imported
  id = var.token
}
