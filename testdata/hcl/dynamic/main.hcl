# Dynamic blocks make nested blocks from a collection, with the block's
# name or an iterator as the loop variable.
locals {
  ports = [
    { from = 80, to = 80 },
    { from = 443, to = 443 },
  ]
}

resource "test_widget" "w" {
  display_name = "dynamic"

  dynamic "ingress_rules" {
    for_each = local.ports
    content {
      from_port   = ingress_rules.value.from
      to_port     = ingress_rules.value.to
      cidr_blocks = ["10.0.${ingress_rules.key}.0/24"]
    }
  }

  dynamic "settings" {
    for_each = [1]
    iterator = s
    content {
      max_size = s.value * 5
    }
  }
}

output "ports" {
  value = test_widget.w.ingress_rules[*].to_port
}
