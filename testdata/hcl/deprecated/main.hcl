# deprecated variables and outputs (OpenTofu's): a warning where a value
# is given to one, or a module's one is referred to.
variable "old_name" {
  default    = "a"
  deprecated = "Use name instead."
}

variable "unset" {
  default    = "b"
  deprecated = "Never said: no value is given."
}

module "child" {
  source = "./child"
  legacy = "x"
}

output "size" {
  value = module.child.size
}
