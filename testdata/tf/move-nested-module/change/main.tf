module "inner" {
  source = "./modules/inner"
  name   = "nested"
}

moved {
  from = module.outer.module.inner
  to   = module.inner
}

output "value" {
  value = module.inner.value
}
