# A set through a module's variable and output: still a set (sorted,
# not indexable), and one given as a list to a variable typed set.
module "m" {
  source = "./m"
  zones  = ["c", "a", "b", "a"]
}

output "zones" {
  value = module.m.zones
}

output "indexable" {
  value = can(module.m.zones[0])
}

output "as_list" {
  value = tolist(module.m.zones)
}

output "stored" {
  value = module.m.stored
}
