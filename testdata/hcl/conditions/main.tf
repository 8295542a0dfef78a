# Preconditions are checked before a resource registers (or a data
# source is read, or an output is set), postconditions after, with self
# the instance's value; unknown ones hold. The workspace is the stack;
# sensitive variables are secrets.
variable "ports" {
  type    = map(number)
  default = { web = 80, api = 8080 }
}

variable "token" {
  type      = string
  default   = "t0ken"
  sensitive = true
}

resource "terraform_data" "svc" {
  for_each = var.ports
  input    = { port = each.value, token = var.token }

  lifecycle {
    precondition {
      condition     = each.value > 0
      error_message = "A port is positive."
    }
    postcondition {
      condition     = self.output.port == each.value
      error_message = "The output is the input."
    }
  }
}

data "test_get_thing" "t" {
  name = "n"

  lifecycle {
    postcondition {
      condition     = self.upper == "N"
      error_message = "upper is upper-case."
    }
  }
}

output "web" {
  value = terraform_data.svc["web"].output.port

  precondition {
    condition     = length(terraform_data.svc) == 2
    error_message = "Two services."
  }
  depends_on = [data.test_get_thing.t]
}

output "workspace" {
  value = terraform.workspace
}
