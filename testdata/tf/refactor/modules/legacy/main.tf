terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}

resource "cairnfw_file" "legacy" {
  name    = "legacy"
  content = "legacy"
}

output "legacy" {
  value = cairnfw_file.legacy.name
}
