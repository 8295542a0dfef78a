variable "name" {
  type = string
}

resource "terraform_data" "x" {
  input = var.name
}

output "value" {
  value = terraform_data.x.output
}
