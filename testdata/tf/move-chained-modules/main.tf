# Chained moves of module calls (a to b, b to c) and of a resource into
# the module the chain ends at (change/).
module "a" {
  source = "./m"
  name   = "chain"
}

resource "terraform_data" "r" {
  input = "r"
}

output "values" {
  value = [module.a.value, terraform_data.r.output]
}
