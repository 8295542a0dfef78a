# A module call nested in another moved up to the root (change/), the
# outer call removed.
module "outer" {
  source = "./modules/outer"
}

output "value" {
  value = module.outer.value
}
