terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}

resource "cairnfw_file" "stays" {
  name    = "stays"
  content = "stays"
}
