# Sets inside maps, objects and lists: each sorted, through a variable
# and terraform_data.
variable "groups" {
  type = map(set(string))
  default = {
    web = ["b", "a", "c"]
    db  = ["z", "y", "y"]
  }
}

variable "shape" {
  type = object({
    names = set(string)
    sizes = list(set(number))
  })
  default = {
    names = ["beta", "alpha"]
    sizes = [[3, 1, 2], [10, 2]]
  }
}

resource "terraform_data" "groups" {
  input = var.groups
}

output "groups" {
  value = var.groups
}

output "shape" {
  value = var.shape
}

output "stored" {
  value = terraform_data.groups.output
}

output "flattened" {
  value = flatten([for k, s in var.groups : [for v in s : "${k}:${v}"]])
}
