resource "terraform_data" "single" {
  count = 1
  input = "single"
}

resource "terraform_data" "counted" {
  input = "counted"
}

module "m" {
  source = "./m"
  count  = 1
  name   = "m"
}

output "values" {
  value = [terraform_data.single[0].output, terraform_data.counted.output, module.m[0].value]
}
