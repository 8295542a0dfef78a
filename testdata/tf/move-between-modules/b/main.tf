variable "name" {
  type = string
}

resource "terraform_data" "y" {
  input = var.name
}

resource "terraform_data" "z" {
  input = "z"
}

output "value" {
  value = terraform_data.y.output
}
