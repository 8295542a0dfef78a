# A resource with prevent_destroy = true named by a removed block without
# a lifecycle block (change/): OpenTofu forgets it, its prevent_destroy
# gone with its block, and Cairn too.
resource "terraform_data" "r" {
  input = "r"

  lifecycle {
    prevent_destroy = true
  }
}
