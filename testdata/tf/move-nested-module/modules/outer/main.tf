module "inner" {
  source = "../inner"
  name   = "nested"
}

output "value" {
  value = module.inner.value
}
