# A whole resource of a provider written with the legacy SDK (protocol
# 5): its id and attributes, as a value passed to terraform_data.
terraform {
  required_providers {
    cairnsdk = { source = "cairn/cairnsdk", version = "~> 1.0" }
  }
}

provider "cairnsdk" {
  dir = "store"
}

resource "cairnsdk_item" "a" {
  name  = "a"
  value = "first"
}

resource "terraform_data" "copy" {
  input = cairnsdk_item.a
}

output "item" {
  value     = cairnsdk_item.a
  sensitive = true
}

output "copy_keys" {
  value = keys(terraform_data.copy.output)
}
