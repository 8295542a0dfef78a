# A refactoring, in change/: moved blocks into a module, out of one,
# between a module's instances, a module's rename and from count to
# for_each; removed blocks that forget a resource and a whole module;
# import blocks, with for_each and into a module. The plan moves, forgets
# and imports, and creates, updates or deletes nothing.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

resource "cairnfw_file" "a" {
  name    = "a"
  content = "a"
}

module "one" {
  source = "./modules/one"
}

module "two" {
  source = "./modules/two"
}

module "site" {
  source = "./modules/site"
}

module "legacy" {
  source = "./modules/legacy"
}

module "keyed" {
  source   = "./modules/keyed"
  for_each = toset(["x"])
}

resource "cairnfw_file" "counted" {
  count   = 1
  name    = "counted"
  content = "counted"
}

resource "cairnfw_file" "old" {
  name    = "old"
  content = "old"
}

output "files" {
  value = [cairnfw_file.a.name, module.one.inner, module.two.b, module.keyed["x"].k, cairnfw_file.counted[0].name]
}
