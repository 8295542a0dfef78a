terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

# A resource naming a provider configuration no block declares
# (cairnfw.nowhere): refused by both.
provider "cairnfw" {
  dir = "store"
}

resource "cairnfw_file" "f" {
  provider = cairnfw.nowhere
  name     = "f"
  content  = "f"
}
