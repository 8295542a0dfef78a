# prevent_destroy refuses the plan of a change (change.tfvars) that would
# replace the resource.
variable "trigger" {
  type    = string
  default = "one"
}

resource "terraform_data" "precious" {
  input            = "precious"
  triggers_replace = var.trigger

  lifecycle {
    prevent_destroy = true
  }
}

output "precious" {
  value = terraform_data.precious.output
}
