# A value that fails its variable's validation stops the update, with the
# error message the validation gives.
variable "size" {
  type = number
  validation {
    condition     = var.size >= 4
    error_message = "size must be at least 4."
  }
}

resource "random_string" "s" {
  length = var.size
}
