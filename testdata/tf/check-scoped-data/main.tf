terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

# A check's scoped data source whose argument is unknown until apply
# (a file replaced in change.tfvars), and one with depends_on; both read
# after the resource is written, their assertions passing.
provider "cairnfw" {
  dir = "store"
}

variable "name" {
  default = "first"
}

resource "cairnfw_file" "f" {
  name    = var.name
  content = "content of ${var.name}"
}

check "unknown_name" {
  data "cairnfw_file" "f" {
    name = cairnfw_file.f.id
  }

  assert {
    condition     = data.cairnfw_file.f.content == "content of ${var.name}"
    error_message = "The file holds ${data.cairnfw_file.f.content}."
  }
}

check "depends" {
  data "cairnfw_file" "g" {
    name       = var.name
    depends_on = [cairnfw_file.f]
  }

  assert {
    condition     = data.cairnfw_file.g.content != ""
    error_message = "The file is empty."
  }
}

output "content" {
  value = cairnfw_file.f.content
}
