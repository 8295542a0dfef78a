terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

# A module call with depends_on on a resource: the module's data source
# waits for it (it reads the file the resource writes), and when the
# resource changes (change.tfvars) the read is deferred to apply and the
# copy in the module updated.
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

module "reader" {
  source     = "./m"
  depends_on = [cairnfw_file.f]
}

output "content" {
  value = module.reader.content
}
