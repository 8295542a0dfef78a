# A module's outputs as values: the module object, its keys, a null
# output (kept in the module's object), a sensitive one, and modules
# with count and for_each.
module "one" {
  source = "./m"
  name   = "one"
}

module "many" {
  source   = "./m"
  for_each = toset(["x", "y"])
  name     = each.key
}

module "counted" {
  source = "./m"
  count  = 2
  name   = "c${count.index}"
}

output "one" {
  value     = module.one
  sensitive = true
}

output "one_keys" {
  value = keys(module.one)
}

output "null_output" {
  value = module.one.nothing == null
}

output "many" {
  value = { for k, m in module.many : k => m.label }
}

output "counted" {
  value = module.counted[*].label
}

output "secret" {
  value     = module.one.secret
  sensitive = true
}
