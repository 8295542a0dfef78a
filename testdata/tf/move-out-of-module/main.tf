# A module's resource moved out to the root, the module call removed
# (change/).
module "m" {
  source = "./m"
  name   = "out"
}

output "value" {
  value = module.m.value
}
