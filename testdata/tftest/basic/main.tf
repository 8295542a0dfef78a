variable "name" {
  type    = string
  default = "web"
}

variable "size" {
  type    = number
  default = 1
}

locals {
  label = "${var.name}-${var.size}"
}

resource "terraform_data" "app" {
  input = local.label
}

resource "terraform_data" "copies" {
  count = var.size
  input = "${local.label}-${count.index}"
}

output "label" {
  value = terraform_data.app.output
}

output "id" {
  value = terraform_data.app.id
}

output "copies" {
  value = terraform_data.copies[*].output
}
