# hashicorp/random: seeded values (the same under both tools), keepers
# that force replacements, a password (a secret), and import blocks.
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = ">= 3.6" }
  }
}

variable "keeper" {
  type    = string
  default = "one"
}

variable "length" {
  type    = number
  default = 16
}

resource "random_id" "id" {
  byte_length = 8
  keepers     = { k = var.keeper }
}

resource "random_integer" "n" {
  min  = 1
  max  = 1000
  seed = "seed-${var.keeper}"
}

resource "random_shuffle" "pick" {
  input        = ["a", "b", "c", "d", "e"]
  result_count = 3
  seed         = var.keeper
}

resource "random_password" "pw" {
  length  = var.length
  special = false
}

resource "random_pet" "p" {
  length    = 3
  separator = "_"
}

import {
  to = random_integer.imported
  id = "15,1,100"
}

resource "random_integer" "imported" {
  min = 1
  max = 100
}

import {
  to = random_id.imported
  id = "p-9hUg"
}

resource "random_id" "imported" {
  byte_length = 4
}

output "n" {
  value = random_integer.n.result
}

output "picked" {
  value = random_shuffle.pick.result
}

output "id_bytes" {
  value = length(random_id.id.hex) / 2
}

output "pw_length" {
  value     = length(random_password.pw.result)
  sensitive = true
}

output "pet_words" {
  value = length(split("_", random_pet.p.id))
}

output "imported" {
  value = [random_integer.imported.result, random_id.imported.dec, random_id.imported.hex]
}
