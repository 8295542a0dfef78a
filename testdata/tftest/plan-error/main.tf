variable "count_of" {
  type    = number
  default = 1
  validation {
    condition     = var.count_of < 5
    error_message = "At most 4."
  }
}

resource "terraform_data" "a" {
  count = var.count_of
  input = count.index
}

output "n" {
  value = length(terraform_data.a)
}
