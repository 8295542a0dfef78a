# replace_triggered_by pointing at attributes that do not change, of
# instances that are only updated: their ID, an argument kept, a null
# argument and a computed attribute the provider keeps. Nothing is
# replaced, as in OpenTofu; an attribute that changes still triggers.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

variable "v" {
  default = "one"
}

resource "terraform_data" "src" {
  count            = 2
  input            = "${var.v}-${count.index}"
  triggers_replace = count.index == 0 ? "kept" : null
}

resource "cairnfw_file" "f" {
  name    = "f"
  content = var.v
}

resource "terraform_data" "by_id" {
  input = "by_id"

  lifecycle {
    replace_triggered_by = [terraform_data.src[0].id]
  }
}

resource "terraform_data" "by_kept" {
  input = "by_kept"

  lifecycle {
    replace_triggered_by = [terraform_data.src[0].triggers_replace]
  }
}

resource "terraform_data" "by_null" {
  count = 2
  input = "by_null"

  lifecycle {
    replace_triggered_by = [terraform_data.src[count.index].triggers_replace]
  }
}

resource "terraform_data" "by_file_null" {
  input = "by_file_null"

  lifecycle {
    replace_triggered_by = [cairnfw_file.f.secret, cairnfw_file.f.tag]
  }
}

resource "terraform_data" "by_file_id" {
  input = "by_file_id"

  lifecycle {
    replace_triggered_by = [cairnfw_file.f.id, cairnfw_file.f.name]
  }
}

resource "terraform_data" "by_changed" {
  input = "by_changed"

  lifecycle {
    replace_triggered_by = [terraform_data.src[1].input]
  }
}

output "kept" {
  value = [terraform_data.src[0].triggers_replace, terraform_data.src[1].triggers_replace, cairnfw_file.f.name]
}
