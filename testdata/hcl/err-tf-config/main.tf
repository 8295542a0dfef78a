# What a Terraform configuration gets wrong: a required_version Cairn's
# language version does not meet, a quoted type constraint, an override
# of nothing, a value in a .tfvars file of the wrong type.
terraform {
  required_version = "~> 0.12.0"
}

variable "old" {
  type = "string"
}

variable "count_of" {
  type = number
}

resource "test_thing" "t" {
  name   = "t"
  length = var.count_of
}
