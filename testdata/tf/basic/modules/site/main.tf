variable "name" {
  type = string
}

variable "sizes" {
  type = list(number)
}

variable "replace" {
  type = string
}

resource "terraform_data" "summary" {
  input = {
    name  = var.name
    total = sum(var.sizes)
  }
  triggers_replace = [var.replace]
}

output "total" {
  value = sum(var.sizes)
}

output "summary" {
  value = "${terraform_data.summary.output.name} has ${terraform_data.summary.output.total} bytes"
}
