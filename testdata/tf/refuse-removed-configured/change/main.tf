resource "terraform_data" "r" {
  input = "r"
}

removed {
  from = terraform_data.r
}

output "r" {
  value = terraform_data.r.output
}
