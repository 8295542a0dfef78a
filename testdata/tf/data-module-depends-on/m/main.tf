terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}

data "cairnfw_file" "f" {
  name = "f"
}

resource "terraform_data" "copy" {
  input = data.cairnfw_file.f.content
}

output "content" {
  value = terraform_data.copy.output
}
