# As in Terraform, for_each takes a map or a set of strings: a list or a
# tuple is refused where it is written, on resources, data sources,
# modules and providers, with toset() as the way out. Sets and maps work.
variable "names" {
  type    = list(string)
  default = ["a", "b"]
}

resource "test_thing" "by_list" {
  for_each = var.names
  name     = each.key
}

resource "test_thing" "by_tuple" {
  for_each = ["a", "b"]
  name     = each.key
}

data "test_get_thing" "lookup" {
  for_each = var.names
  name     = each.key
}

module "mod" {
  source   = "./mod"
  for_each = [for n in var.names : upper(n)]
}

provider "test" {
  alias    = "by_region"
  for_each = ["north"]
  region   = each.key
}

resource "test_thing" "by_set" {
  for_each = toset(var.names)
  name     = each.key
}

resource "test_thing" "by_objects" {
  for_each = [{ name = "a" }]
  name     = each.value.name
}
