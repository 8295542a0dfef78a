# The configuration with the resources removed.
resource "terraform_data" "stays" {
  input = "stays"
}

removed {
  from = terraform_data.gone

  lifecycle {
    destroy = true
  }
}

removed {
  from = terraform_data.kept

  lifecycle {
    destroy = false
  }
}

removed {
  from = terraform_data.counted

  lifecycle {
    destroy = false
  }
}

output "stays" {
  value = terraform_data.stays.output
}
