# Sets stay sets: their order (Terraform's: strings sorted, numbers by
# value) and their type, through variables, locals, outputs and
# terraform_data's input and output (whose type Cairn loses: see
# docs/terraform.md).
variable "zones" {
  type    = set(string)
  default = ["c", "a", "b", "a"]
}

locals {
  numbers = toset([10, 9, 100, 1.5])
  mixed   = toset(["b", "10", "9", "a"])
}

resource "terraform_data" "zones" {
  input = var.zones
}

resource "terraform_data" "nested" {
  input = { zones = var.zones, numbers = local.numbers }
}

output "zones" {
  value = var.zones
}

output "numbers" {
  value = local.numbers
}

output "mixed" {
  value = local.mixed
}

output "data_output" {
  value = terraform_data.zones.output
}

output "data_nested" {
  value = terraform_data.nested.output
}

output "types" {
  value = {
    var_is_set     = var.zones == toset(["a", "b", "c"])
    not_a_list     = var.zones == tolist(["a", "b", "c"])
    indexable      = can(var.zones[0])
    for_keeps_sort = [for z in var.zones : upper(z)]
    set_union      = setunion(var.zones, ["d", "0"])
    sorted_numbers = sort(local.numbers)
    length         = length(terraform_data.zones.output)
  }
}
