# terraform_data is built in: input comes back as output once applied,
# triggers_replace takes any value, and the ID is chosen at create.
variable "size" {
  type    = number
  default = 3
}

resource "terraform_data" "config" {
  input = {
    size  = var.size
    zones = ["a", "b"]
  }
  triggers_replace = [var.size]
}

resource "terraform_data" "copy" {
  input = terraform_data.config.output.zones
}

output "size" {
  value = terraform_data.config.output.size
}

output "zones" {
  value = terraform_data.copy.output
}
