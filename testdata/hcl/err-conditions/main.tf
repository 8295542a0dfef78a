# A false precondition stops a resource from registering, a false
# postcondition fails it once registered, and a false output
# precondition fails the output; each says its message.
resource "terraform_data" "pre" {
  input = 1

  lifecycle {
    precondition {
      condition     = 1 > 2
      error_message = "One is not more than two."
    }
  }
}

resource "terraform_data" "post" {
  input = "a"

  lifecycle {
    postcondition {
      condition     = self.output == "b"
      error_message = "The output is not b."
    }
  }
}

output "o" {
  value = 1

  precondition {
    condition     = false
    error_message = "Never."
  }
}
