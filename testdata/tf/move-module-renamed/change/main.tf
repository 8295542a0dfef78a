module "new" {
  source = "./m"
  count  = 2
  name   = "n${count.index}"
}

moved {
  from = module.old
  to   = module.new
}

output "values" {
  value = module.new[*].value
}
