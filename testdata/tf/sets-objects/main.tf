# Sets of objects, in the order Terraform keeps them, through a
# variable, for expressions and terraform_data.
variable "rules" {
  type = set(object({ port = number, proto = string }))
  default = [
    { port = 443, proto = "tcp" },
    { port = 53, proto = "udp" },
    { port = 22, proto = "tcp" },
    { port = 443, proto = "tcp" },
  ]
}

resource "terraform_data" "rules" {
  input = var.rules
}

output "rules" {
  value = var.rules
}

output "ports" {
  value = [for r in var.rules : r.port]
}

output "stored" {
  value = terraform_data.rules.output
}

output "count" {
  value = length(var.rules)
}
