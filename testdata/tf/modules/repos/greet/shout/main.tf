variable "text" {
  type = string
}

resource "terraform_data" "text" {
  input = upper(var.text)
}

output "text" {
  value = terraform_data.text.output
}
