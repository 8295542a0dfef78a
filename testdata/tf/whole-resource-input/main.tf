# A whole resource given to terraform_data's input is kept as the
# object of its attributes; a change of it updates what holds it.
variable "content" {
  type    = string
  default = "one"
}

terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

resource "cairnfw_file" "f" {
  name    = "f"
  content = var.content
}

resource "terraform_data" "holder" {
  input = cairnfw_file.f
}

resource "terraform_data" "list" {
  input = [cairnfw_file.f, cairnfw_file.f]
}

output "held" {
  value = terraform_data.holder.output
}

output "held_content" {
  value = terraform_data.list.output[1].content
}
