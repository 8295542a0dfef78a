# A whole resource passed to a module, through a variable typed as an
# object of some of its attributes and one of any type, and back out.
resource "terraform_data" "a" {
  input = ["x", "y"]
}

module "m" {
  source = "./m"
  typed  = terraform_data.a
  loose  = terraform_data.a
}

output "typed" {
  value = module.m.typed
}

output "loose_keys" {
  value = module.m.loose_keys
}

output "loose_input" {
  value = module.m.loose.input
}
