# ignore_changes of every argument that changes (change.tfvars): no
# update is planned, and triggers_replace ignored plans no replacement.
variable "v" {
  default = "one"
}

resource "terraform_data" "r" {
  input            = var.v
  triggers_replace = [var.v]

  lifecycle {
    ignore_changes = [input, triggers_replace]
  }
}

resource "terraform_data" "all" {
  triggers_replace = var.v

  lifecycle {
    ignore_changes = all
  }
}

output "r" {
  value = terraform_data.r.output
}
