# prevent_destroy = null, which OpenTofu treats as true: a change that
# replaces the resource (change.tfvars) is refused by both.
variable "trigger" {
  default = "one"
}

resource "terraform_data" "r" {
  triggers_replace = var.trigger

  lifecycle {
    prevent_destroy = null
  }
}
