# OpenTofu's for_each on provider blocks: one configuration per store,
# each resource instance choosing its own. The change adds a store.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

variable "stores" {
  type    = set(string)
  default = ["a", "b"]
}

provider "cairnfw" {
  alias    = "by_store"
  for_each = var.stores
  dir      = each.key
}

resource "cairnfw_file" "f" {
  for_each = var.stores
  provider = cairnfw.by_store[each.key]
  name     = "f"
  content  = "in ${each.key}"
}

output "sizes" {
  value = { for k, f in cairnfw_file.f : k => f.size }
}
