# A module call with depends_on and count, an output of a module with
# count and for_each as a whole; change.tfvars changes the resource the
# call depends on and the count.
variable "first" {
  default = "one"
}

variable "count_of" {
  default = 1
}

resource "terraform_data" "first" {
  input = var.first
}

module "after" {
  source     = "./m"
  count      = var.count_of
  name       = "after${count.index}"
  depends_on = [terraform_data.first]
}

module "keyed" {
  source   = "./m"
  for_each = { a = 1, b = 2 }
  name     = "k${each.value}"
}

output "after" {
  value = module.after[*].value
}

output "keyed" {
  value = { for k, m in module.keyed : k => m.value }
}
