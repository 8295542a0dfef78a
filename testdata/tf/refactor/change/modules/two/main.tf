terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}

resource "cairnfw_file" "b" {
  name    = "b"
  content = "b"
}

resource "cairnfw_file" "a" {
  name    = "a"
  content = "a"
}

resource "cairnfw_file" "imp3" {
  name    = "imp3"
  content = "imported"
}
