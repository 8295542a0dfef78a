# depends_on whole resources, a counted one and a module; quoted
# references as Terraform 0.11 wrote them are taken with a warning.
variable "gen" {
  type    = number
  default = 1
}

resource "terraform_data" "a" {
  input = var.gen
}

resource "terraform_data" "b" {
  count = 2
  input = count.index
}

module "m" {
  source = "./m"
}

resource "terraform_data" "after" {
  input      = "after"
  depends_on = [terraform_data.a, terraform_data.b, module.m]
}

resource "terraform_data" "quoted" {
  input      = "quoted"
  depends_on = ["terraform_data.a", "terraform_data.b"]
}

output "after" {
  value = terraform_data.after.output
}
