module "new" {
  source = "./m"
  name   = "n"
}

output "value" {
  value = module.new.value
}
