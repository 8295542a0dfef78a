# A provider block without an alias is the default provider of its package;
# one with an alias is used where a resource or data source names it.
# Modules use their caller's default providers unless given others.
provider "test" {
  region = "west"
}

provider "test" {
  alias  = "east"
  region = "east"
}

resource "test_thing" "default" {
  name = "default"
}

resource "test_thing" "eastern" {
  name     = "eastern"
  provider = test.east
}

data "test_get_thing" "east" {
  name     = "x"
  provider = test.east
}

module "inherits" {
  source = "./child"
}

module "passed" {
  source    = "./child"
  providers = { test = test.east }
}

output "upper" {
  value = data.test_get_thing.east.upper
}

# for_each on a provider block (OpenTofu's): one provider per key, chosen
# by key.
provider "test" {
  alias    = "by_region"
  for_each = toset(["north", "south"])
  region   = each.key
}

resource "test_thing" "regional" {
  for_each = toset(["north", "south"])
  name     = each.key
  provider = test.by_region[each.key]
}
