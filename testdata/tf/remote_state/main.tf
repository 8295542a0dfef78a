# Reads the outputs of another configuration's state file, over defaults.
data "terraform_remote_state" "upstream" {
  backend = "local"
  config = {
    path = "upstream.tfstate"
  }
  defaults = {
    a       = "not used: the state has a"
    missing = "from the defaults"
  }
}

locals {
  up = data.terraform_remote_state.upstream.outputs
}

output "a" { value = local.up.a }
output "missing" { value = local.up.missing }
output "n_y" { value = local.up.n.y }
output "keys" { value = sort(keys(local.up)) }
output "backend" { value = data.terraform_remote_state.upstream.backend }
