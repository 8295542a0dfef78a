# A resource with prevent_destroy = true removed with a removed block
# that destroys it (change/): the resource block and its lifecycle are
# gone, so both plan its delete.
resource "terraform_data" "r" {
  input = "r"

  lifecycle {
    prevent_destroy = true
  }
}
