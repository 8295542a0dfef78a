# Terraform's implied moves (change/): a resource given count = 1 moves
# to its instance [0], and a counted resource whose count is removed
# takes over [0]; a module call given count is planned as OpenTofu plans
# it.
resource "terraform_data" "single" {
  input = "single"
}

resource "terraform_data" "counted" {
  count = 1
  input = "counted"
}

module "m" {
  source = "./m"
  name   = "m"
}

output "values" {
  value = [terraform_data.single.output, terraform_data.counted[0].output, module.m.value]
}
