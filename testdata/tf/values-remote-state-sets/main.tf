# terraform_remote_state of a state whose outputs are sets, lists,
# tuples, maps and objects: the values, their order and their types as
# the state records them.
data "terraform_remote_state" "other" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
}

locals {
  o = data.terraform_remote_state.other.outputs
}

output "set" {
  value = local.o.zones
}

output "list" {
  value = local.o.names
}

output "tuple" {
  value = local.o.mixed
}

output "map" {
  value = local.o.sizes
}

output "object" {
  value = local.o.shape
}
