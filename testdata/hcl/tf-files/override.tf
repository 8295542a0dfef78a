locals {
  prefix = "override"
}

resource "test_widget" "w" {
  ingress_rules {
    from_port = 443
  }

  lifecycle {
    create_before_destroy = false
  }
}
