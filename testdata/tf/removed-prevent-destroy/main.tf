# A resource with prevent_destroy = true taken out of the configuration
# (change/): its lifecycle goes with it, so Terraform plans its delete;
# a second one is forgotten by a removed block.
resource "terraform_data" "guarded" {
  input = "guarded"

  lifecycle {
    prevent_destroy = true
  }
}

resource "terraform_data" "forgotten" {
  input = "forgotten"

  lifecycle {
    prevent_destroy = true
  }
}

resource "terraform_data" "stays" {
  input = "stays"
}

output "stays" {
  value = terraform_data.stays.output
}
