# Read by Terraform; OpenTofu (and Cairn) read main.tofu instead.
output "reader" {
  value = "terraform"
}
