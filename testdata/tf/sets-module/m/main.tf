variable "zones" {
  type = set(string)
}

resource "terraform_data" "z" {
  input = var.zones
}

output "zones" {
  value = var.zones
}

output "stored" {
  value = terraform_data.z.output
}
