# Sensitivity follows a value through functions, collections,
# conditions and terraform_data: what is computed from a sensitive
# value is sensitive; issensitive says so.
variable "password" {
  type      = string
  default   = "hunter2"
  sensitive = true
}

locals {
  derived = upper(var.password)
  inside  = { user = "admin", password = var.password }
}

resource "terraform_data" "secret" {
  input = var.password
}

output "derived" {
  value     = local.derived
  sensitive = true
}

output "inside" {
  value     = local.inside
  sensitive = true
}

output "length" {
  value     = length(var.password)
  sensitive = true
}

output "is_sensitive" {
  value = [issensitive(var.password), issensitive(local.inside.user), issensitive("plain")]
}

output "stored" {
  value     = terraform_data.secret.output
  sensitive = true
}

output "hash" {
  value     = sha256(var.password)
  sensitive = true
}
