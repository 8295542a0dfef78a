# A removed block naming a resource still in the configuration
# (change/): refused by both.
resource "terraform_data" "r" {
  input = "r"
}

output "r" {
  value = terraform_data.r.output
}
