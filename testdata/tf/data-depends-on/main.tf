terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

# A data source with depends_on on a resource that changes
# (change.tfvars) is read at apply, as OpenTofu defers it, and so is one
# whose argument is unknown; a data source depending on nothing that
# changes is read at plan. Outputs show what each read.
provider "cairnfw" {
  dir = "store"
}

variable "content" {
  default = "one"
}

resource "cairnfw_file" "f" {
  name    = "f"
  content = var.content
}

resource "cairnfw_file" "fixed" {
  name    = "fixed"
  content = "fixed"
}

data "cairnfw_file" "after" {
  name       = "f"
  depends_on = [cairnfw_file.f]
}

data "cairnfw_file" "unknown" {
  name = cairnfw_file.f.id
}

data "cairnfw_file" "fixed" {
  name       = "fixed"
  depends_on = [cairnfw_file.fixed]
}

resource "terraform_data" "reads" {
  input = [data.cairnfw_file.after.content, data.cairnfw_file.unknown.content, data.cairnfw_file.fixed.content]
}

output "reads" {
  value = terraform_data.reads.output
}
