# No required_providers anywhere: cairnfw_* implies hashicorp/cairnfw in
# the root and in modules nested two deep, which inherit the root's
# default configuration.
provider "cairnfw" {
  dir = "store"
}

variable "suffix" {
  default = "a"
}

module "outer" {
  source = "./modules/outer"
}

resource "cairnfw_file" "root" {
  name    = "root"
  content = "root ${var.suffix}"
}

output "content" {
  value = [module.outer.content, cairnfw_file.root.content]
}
