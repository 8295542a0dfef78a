# An import block whose resource is not in the configuration (change/):
# refused by both, OpenTofu asking for the block or for
# -generate-config-out.
resource "terraform_data" "seed" {
  input = "seed"
}

output "seed" {
  value = terraform_data.seed.output
}
