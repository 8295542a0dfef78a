# The refactored configuration.
resource "terraform_data" "c" {
  input = "a"
}

moved {
  from = terraform_data.a
  to   = terraform_data.b
}

moved {
  from = terraform_data.b
  to   = terraform_data.c
}

module "renamed" {
  source = "./modules/app"
  name   = "old"
}

moved {
  from = module.old
  to   = module.renamed
}

module "outer" {
  source = "./modules/outer"
}

moved {
  from = terraform_data.loose
  to   = module.outer.module.inner.terraform_data.x
}

moved {
  from = module.net
  to   = module.outer.module.net
}

output "values" {
  value = [terraform_data.c.output, module.renamed.value, module.outer.loose, module.outer.net]
}
