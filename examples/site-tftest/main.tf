# A small Terraform module: a site's pages, named from a prefix, and
# their count. tests/ holds its Terraform test files.
variable "prefix" {
  type    = string
  default = "site"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]*$", var.prefix))
    error_message = "The prefix is lower-case letters, digits and dashes, starting with a letter."
  }
}

variable "pages" {
  type    = list(string)
  default = ["home", "about"]
}

locals {
  names = [for p in var.pages : "${var.prefix}-${p}"]
}

resource "terraform_data" "page" {
  for_each = toset(local.names)
  input    = { name = each.key, path = "/${each.key}.html" }
}

output "paths" {
  value = sort([for p in terraform_data.page : p.output.path])
}

output "count" {
  value = length(terraform_data.page)
}
