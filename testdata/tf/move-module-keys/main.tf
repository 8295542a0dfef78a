# A module call's counted instances moved to for_each keys (change/).
module "m" {
  source = "./m"
  count  = 2
  name   = "i${count.index}"
}

output "values" {
  value = module.m[*].value
}
