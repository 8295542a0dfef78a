resource "terraform_data" "stays" {
  input = "stays"
}

removed {
  from = terraform_data.forgotten

  lifecycle {
    destroy = false
  }
}

output "stays" {
  value = terraform_data.stays.output
}
