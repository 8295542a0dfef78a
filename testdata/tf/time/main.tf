# hashicorp/time: timestamps from a variable (the same under both
# tools), an offset, a rotation, a sleep with triggers, and an import.
terraform {
  required_providers {
    time = { source = "hashicorp/time", version = ">= 0.9" }
  }
}

variable "stamp" {
  type    = string
  default = "2090-01-02T03:04:05Z"
}

resource "time_static" "base" {
  rfc3339 = var.stamp
}

resource "time_offset" "later" {
  base_rfc3339  = time_static.base.rfc3339
  offset_days   = 3
  offset_hours  = 1
  offset_months = 1
}

resource "time_rotating" "key" {
  rfc3339       = var.stamp
  rotation_days = 30
}

resource "time_sleep" "settle" {
  create_duration = "1s"
  triggers = {
    stamp = var.stamp
  }
}

import {
  to = time_static.imported
  id = "2020-02-12T06:36:13Z"
}

# The provider imports triggers as an empty map: without it here the
# plan would replace what was imported.
resource "time_static" "imported" {
  triggers = {}
}

output "base" {
  value = [time_static.base.year, time_static.base.month, time_static.base.day, time_static.base.unix]
}

output "later" {
  value = time_offset.later.rfc3339
}

output "rotation" {
  value = time_rotating.key.rotation_rfc3339
}

output "imported_unix" {
  value = time_static.imported.unix
}

output "settle_triggers" {
  value = time_sleep.settle.triggers
}
