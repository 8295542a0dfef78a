# Resources named the Terraform way, with snake_case arguments, nested
# blocks and references to outputs mapped to the schema's camelCase names.
locals {
  prefix = "web-${pulumi.stack}"
}

resource "test_widget" "site" {
  display_name = "${local.prefix}-site"
  max_size     = 3

  settings {
    max_size  = 10
    log_level = "debug"
  }

  ingress_rules {
    from_port   = 80
    to_port     = 80
    cidr_blocks = ["0.0.0.0/0"]
  }
  ingress_rules {
    from_port = 443
  }

  extra_tags = {
    Name       = "site"
    cost_center = "web"
  }
}

resource "random_string" "suffix" {
  length           = 6
  special          = true
  override_special = "_"
  min_lower        = 6
}

resource "test_thing" "downstream" {
  name  = test_widget.site.display_name
  value = test_widget.site.public_url
  tags = {
    size = tostring(test_widget.site.settings.max_size)
  }
}

output "url" {
  value = test_widget.site.public_url
}

output "rules" {
  value = [for r in test_widget.site.ingress_rules : r.from_port]
}

output "suffix_length" {
  value = length(random_string.suffix.result)
}
