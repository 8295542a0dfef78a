# Plan modifiers of a provider written with the plugin framework: id
# keeps its value across an update (UseStateForUnknown), a new name
# replaces (RequiresReplace), a new content updates in place.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

variable "names" {
  type    = map(string)
  default = { a = "alpha", b = "beta" }
}

variable "content" {
  type    = string
  default = "one"
}

resource "cairnfw_file" "f" {
  for_each = var.names
  name     = each.value
  content  = "${var.content}-${each.key}"
}

resource "terraform_data" "ids" {
  input = { for k, f in cairnfw_file.f : k => f.id }
}

output "ids" {
  value = terraform_data.ids.output
}

output "sizes" {
  value = { for k, f in cairnfw_file.f : k => f.size }
}
