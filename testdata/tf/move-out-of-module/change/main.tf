resource "terraform_data" "x" {
  input = "out"
}

moved {
  from = module.m.terraform_data.x
  to   = terraform_data.x
}

output "value" {
  value = terraform_data.x.output
}
