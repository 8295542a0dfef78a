module "inner" {
  source = "../m"
}

output "name" {
  value = module.inner.name
}
