resource "terraform_data" "stays" {
  input = "stays"
}

removed {
  from = module.destroyed
}

removed {
  from = module.forgotten

  lifecycle {
    destroy = false
  }
}

output "stays" {
  value = terraform_data.stays.output
}
