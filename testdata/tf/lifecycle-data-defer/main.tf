# Data sources deferred to the apply as OpenTofu defers them: one whose
# depends_on names a resource with changes, one whose argument is not
# known until the apply, and, read during the plan, one whose depends_on
# names a resource without changes. change.tfvars changes the file and
# the name; what uses the deferred reads plans an update.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

variable "content" {
  type    = string
  default = "first"
}

variable "name" {
  type    = string
  default = "static"
}

resource "cairnfw_file" "changing" {
  name    = "changing"
  content = var.content
}

resource "cairnfw_file" "steady" {
  name    = "steady"
  content = "steady"
}

resource "terraform_data" "name" {
  input = var.name
}

data "cairnfw_file" "after_changing" {
  name       = "static"
  depends_on = [cairnfw_file.changing]
}

data "cairnfw_file" "after_steady" {
  name       = "static"
  depends_on = [cairnfw_file.steady]
}

data "cairnfw_file" "unknown_name" {
  name = terraform_data.name.output == "" ? "static" : "static"
}

resource "terraform_data" "uses_changing" {
  input = data.cairnfw_file.after_changing.content
}

resource "terraform_data" "uses_steady" {
  input = data.cairnfw_file.after_steady.content
}

resource "terraform_data" "uses_unknown" {
  input = data.cairnfw_file.unknown_name.content
}

output "reads" {
  value = [data.cairnfw_file.after_changing.content, data.cairnfw_file.after_steady.content, data.cairnfw_file.unknown_name.content]
}
