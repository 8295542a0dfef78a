# The resources removed, forgotten.
resource "terraform_data" "stays" {
  input = "stays"
}

removed {
  from = terraform_data.a

  provisioner "local-exec" {
    when    = destroy
    command = "echo removing ${self.input} >> removed.log"
  }
}

removed {
  from = terraform_data.b

  lifecycle {
    destroy = false
  }

  provisioner "local-exec" {
    when    = destroy
    command = "echo removing ${self.input} >> removed.log"
  }
}

output "stays" {
  value = terraform_data.stays.output
}
