module "b" {
  source = "./b"
  name   = "moving"
}

moved {
  from = module.a.terraform_data.x
  to   = module.b.terraform_data.y
}

output "value" {
  value = module.b.value
}
