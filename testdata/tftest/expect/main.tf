variable "port" {
  type    = number
  default = 8080
  validation {
    condition     = var.port > 1024
    error_message = "The port must be above 1024."
  }
}

variable "mode" {
  type    = string
  default = "ok"
}

resource "terraform_data" "server" {
  input = var.port
  lifecycle {
    postcondition {
      condition     = self.output != 9998
      error_message = "9998 is reserved."
    }
  }
}

output "url" {
  value = "http://localhost:${var.port}"
  precondition {
    condition     = var.mode != "broken"
    error_message = "The mode is broken."
  }
}

check "port_even" {
  assert {
    condition     = var.port % 2 == 0
    error_message = "The port is odd."
  }
}
