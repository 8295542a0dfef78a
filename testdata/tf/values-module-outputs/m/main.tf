variable "name" {
  type = string
}

resource "terraform_data" "r" {
  input = var.name
}

output "label" {
  value = "label-${terraform_data.r.output}"
}

output "nothing" {
  value = null
}

output "secret" {
  value     = sensitive("s-${var.name}")
  sensitive = true
}

output "set" {
  value = toset([var.name, "z", "a"])
}
