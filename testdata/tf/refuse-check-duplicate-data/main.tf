# A check's scoped data source with the address of a data source outside
# it: refused by both.
data "terraform_remote_state" "s" {
  backend = "local"
  config  = { path = "none.tfstate" }
  defaults = { x = 1 }
}

check "c" {
  data "terraform_remote_state" "s" {
    backend = "local"
    config  = { path = "none.tfstate" }
    defaults = { x = 2 }
  }

  assert {
    condition     = data.terraform_remote_state.s.outputs.x == 2
    error_message = "x is not 2."
  }
}
