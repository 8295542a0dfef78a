# A module with no resources: a Terraform state has no trace of it.
variable "parts" {
  type = list(string)
}

output "label" {
  value = join("-", var.parts)
}
