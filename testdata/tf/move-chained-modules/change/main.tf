module "c" {
  source = "./m"
  name   = "chain"
}

module "d" {
  source = "./m"
  name   = "r"
}

moved {
  from = module.a
  to   = module.b
}

moved {
  from = module.b
  to   = module.c
}

moved {
  from = terraform_data.r
  to   = terraform_data.s
}

moved {
  from = terraform_data.s
  to   = module.d.terraform_data.x
}

output "values" {
  value = [module.c.value, module.d.value]
}
