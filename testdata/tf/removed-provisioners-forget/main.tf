# removed blocks with destroy-time provisioners that forget their
# resource (no lifecycle, and destroy = false): OpenTofu forgets both
# and runs no provisioner, as it runs them only for a removed block that
# deletes its resource.
resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  count = 2
  input = "b${count.index}"
}

resource "terraform_data" "stays" {
  input = "stays"
}

output "stays" {
  value = terraform_data.stays.output
}
