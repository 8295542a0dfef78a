# count and for_each make instances named name[0] and name["key"]; an
# instance that refers to another by its own key waits for that one only.
variable "envs" {
  default = {
    dev  = 1
    prod = 3
  }
}

resource "test_thing" "server" {
  count = 2
  name  = "server-${count.index}"
}

resource "test_thing" "disk" {
  count = 2
  name  = "disk-for-${test_thing.server[count.index].name}"
}

resource "test_thing" "env" {
  for_each = var.envs
  name     = each.key
  length   = each.value
}

resource "test_thing" "env_dns" {
  for_each = test_thing.env
  name     = "${each.key}.example"
  value    = each.value.result
}

resource "test_thing" "by_set" {
  for_each = toset(["x", "y"])
  name     = each.value
}

resource "test_thing" "none" {
  count = 0
  name  = "never"
}

output "servers" {
  value = test_thing.server[*].name
}

output "dns" {
  value = { for k, v in test_thing.env_dns : k => v.name }
}

output "none" {
  value = length(test_thing.none)
}
