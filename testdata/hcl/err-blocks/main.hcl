# Misused blocks and meta-arguments.
resource "test_thing" "both" {
  count    = 1
  for_each = {}
}

moved {
  from = test_thing.both
  to   = test_thing.missing
}

removed {
  from = test_thing.both
}

import {
  to = module.nope
  id = "x"
}

module "remote" {
  source  = "hashicorp/consul/aws"
  version = "1.0.0"
}

variable "bad" {
  default   = 1
  sensitive = "yes"
}

resource "test_thing" "opts" {
  lifecycle {
    prevent_destroy = true
  }
  pulumi {
    protect = true
    colour  = "red"
  }
}

resouce "test_thing" "typo" {}

provider "test" {
  for_each = toset(["a"])
}

resource "test_thing" "west" {}

import {
  to       = test_thing.west
  id       = "w"
  provider = test.west
}

removed {
  from = test_thing.gone

  lifecycle {
    destroy = true
  }

  provisioner "local-exec" {
    when    = destroy
    command = "echo gone"
  }
}

resource "test_thing" "triggered" {
  name = "t"

  lifecycle {
    replace_triggered_by = [path.module, test_thing.both.name, "${test_thing.both.id}${test_thing.both.name}"]
  }
}

removed {
  from = test_thing.forgotten

  provisioner "local-exec" {
    command = "echo not at destroy"
  }
}
