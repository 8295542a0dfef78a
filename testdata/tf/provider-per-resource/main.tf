terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

# Two configurations of one provider, chosen per resource and data
# source: data sources read each file back from the folder of the
# configuration they name, so a file written through the wrong one fails
# the read. The change edits the contents.
variable "content" {
  default = "one"
}

provider "cairnfw" {
  dir = "store"
}

provider "cairnfw" {
  alias = "west"
  dir   = "store/west"
}

resource "cairnfw_file" "default" {
  name    = "default"
  content = "default ${var.content}"
}

resource "cairnfw_file" "west" {
  provider = cairnfw.west
  for_each = toset(["a", "b"])
  name     = "west-${each.key}"
  content  = "west ${var.content}"
}

data "cairnfw_file" "default" {
  name = cairnfw_file.default.id
}

data "cairnfw_file" "west" {
  provider = cairnfw.west
  for_each = cairnfw_file.west
  name     = each.value.id
}

output "contents" {
  value = [data.cairnfw_file.default.content, [for d in data.cairnfw_file.west : d.content]]
}
