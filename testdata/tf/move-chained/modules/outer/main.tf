module "inner" {
  source = "../app"
  name   = "loose"
}

module "net" {
  source = "../net"
}

output "loose" {
  value = module.inner.value
}

output "net" {
  value = module.net.value
}
