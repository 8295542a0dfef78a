# References to what is not declared, with the closest names.
variable "size" {
  default = 1
}

locals {
  label = "x"
}

resource "test_thing" "web" {
  name = local.lable
}

output "a" {
  value = test_thing.wbe.name
}

output "b" {
  value = var.sizee
}

output "c" {
  value = module.nothing.x
}

output "d" {
  value = data.test_get_thing.x.upper
}

output "e" {
  value = test_thing.web.reslt
}

output "f" {
  value = count.index
}

check "scoped" {
  data "test_get_thing" "scoped" {
    name = "s"
  }

  assert {
    condition     = data.test_get_thing.scoped.upper == "S"
    error_message = "not in capitals"
  }
}

output "g" {
  value = data.test_get_thing.scoped.upper
}
