module "m" {
  source   = "./m"
  for_each = toset(["a", "b"])
  name     = each.key
}

moved {
  from = terraform_data.x
  to   = module.m["a"].terraform_data.x
}

moved {
  from = terraform_data.y[0]
  to   = module.m["b"].terraform_data.x
}

output "values" {
  value = [module.m["a"].value, module.m["b"].value]
}
