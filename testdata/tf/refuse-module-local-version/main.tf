# A local module source with a version argument, which only registry
# modules take: refused by both.
module "m" {
  source  = "./m"
  version = "1.0.0"
}

output "value" {
  value = module.m.value
}
