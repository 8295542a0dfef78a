# import blocks adopt existing resources by their provider ID, also one
# instance of an expanded resource.
resource "test_thing" "single" {
  name = "adopted"
}

resource "test_thing" "many" {
  count = 2
  name  = "adopted"
}

import {
  to = test_thing.single
  id = "existing-id"
}

import {
  to = test_thing.many[1]
  id = "existing-id"
}

# for_each imports instances by keys computed from each, with IDs from
# expressions.
variable "adopt" {
  default = { a = "id-a", b = "id-b" }
}

resource "test_thing" "keyed" {
  for_each = var.adopt
  name     = "adopted"
}

import {
  for_each = var.adopt
  to       = test_thing.keyed[each.key]
  id       = "existing-${each.value}"
}

# Into a module's resource, and into one instance of a module with count.
module "child" {
  source = "./child"
}

module "counted" {
  source = "./child"
  count  = 2
}

import {
  to = module.child.test_thing.inner
  id = "existing-id"
}

import {
  to = module.counted[1].test_thing.inner
  id = "existing-id-${var.adopt["a"]}"
}

# An import block's provider is the resource's.
provider "test" {
  alias = "east"
}

resource "test_thing" "eastern" {
  name     = "adopted"
  provider = test.east
}

import {
  to       = test_thing.eastern
  id       = "existing-id"
  provider = test.east
}
