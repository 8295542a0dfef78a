terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}

resource "cairnfw_file" "page" {
  name    = "page"
  content = "page"
}

output "size" {
  value = cairnfw_file.page.size
}
