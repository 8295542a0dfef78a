# No required_providers, as in much real Terraform code: cairnfw_file and
# the provider block imply hashicorp/cairnfw, and terraform_data is the
# built-in provider's. The module declares nothing either and inherits
# the root's default cairnfw configuration. The change edits a file's
# content and adds one in the module.
variable "content" {
  default = "one"
}

variable "extra" {
  default = false
}

provider "cairnfw" {
  dir = "store"
}

resource "cairnfw_file" "a" {
  name    = "a"
  content = var.content
}

resource "terraform_data" "d" {
  input = var.content
}

module "m" {
  source = "./m"
  extra  = var.extra
}

output "size" {
  value = cairnfw_file.a.size
}

output "data" {
  value = terraform_data.d.output
}

output "module_sizes" {
  value = module.m.sizes
}
