variable "bucket" {
  type = string
}

resource "terraform_data" "object" {
  input = "${var.bucket}/index.html"
}

output "path" {
  value = terraform_data.object.output
}
