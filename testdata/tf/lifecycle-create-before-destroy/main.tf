# create_before_destroy on a resource replaced through triggers_replace
# (change.tfvars), and on one that depends on it, which is replaced too
# through replace_triggered_by: both plan replacements, as OpenTofu does.
variable "v" {
  default = "one"
}

resource "terraform_data" "first" {
  triggers_replace = var.v

  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "second" {
  input = "second"

  lifecycle {
    create_before_destroy = true
    replace_triggered_by  = [terraform_data.first]
  }
}

output "second" {
  value = terraform_data.second.output
}
