# Local modules, two levels deep: each module instance is a component
# resource, its resources are its children named after it, and its outputs
# are the module's value.
module "site" {
  source = "./modules/site"
  count  = 2
  name   = "site-${count.index}"
}

module "single" {
  source = "./modules/site"
  name   = "single"
  tier   = "gold"
}

output "buckets" {
  value = module.site[*].bucket
}

output "single" {
  value = module.single
}
