terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

# ignore_changes of a nested block (tag), of an attribute of one of a
# block's elements (tag[0].value) and of all arguments; change.tfvars changes what each ignores, and an
# argument that one of them does not ignore.
provider "cairnfw" {
  dir = "store"
}

variable "v" {
  default = "one"
}

variable "content" {
  default = "c1"
}

resource "cairnfw_file" "tags" {
  name    = "tags"
  content = var.content

  tag {
    key   = "k"
    value = var.v
  }

  lifecycle {
    ignore_changes = [tag]
  }
}

resource "cairnfw_file" "tag_value" {
  name    = "tag_value"
  content = var.content

  tag {
    key   = "k"
    value = var.v
  }

  lifecycle {
    ignore_changes = [tag[0].value]
  }
}

resource "cairnfw_file" "all" {
  name    = "all"
  content = var.content

  lifecycle {
    ignore_changes = all
  }
}

output "contents" {
  value = [cairnfw_file.tags.content, cairnfw_file.tag_value.tag[0].value]
}
