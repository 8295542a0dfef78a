variable "previous" {
  type    = string
  default = ""
}

resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  input = "b"
}

output "a_id" {
  value = terraform_data.a.id
}
