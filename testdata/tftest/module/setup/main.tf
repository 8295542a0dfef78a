variable "prefix" {
  type = string
}

resource "terraform_data" "bucket" {
  input = "${var.prefix}-bucket"
}

output "bucket" {
  value = terraform_data.bucket.output
}
