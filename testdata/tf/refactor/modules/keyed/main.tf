terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}

resource "cairnfw_file" "k" {
  name    = "k"
  content = "k"
}

output "k" {
  value = cairnfw_file.k.name
}
