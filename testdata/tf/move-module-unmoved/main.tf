# A module call renamed without a moved block (change/): Terraform plans
# the old call's resources deleted and the new call's created.
module "old" {
  source = "./m"
  name   = "n"
}

output "value" {
  value = module.old.value
}
