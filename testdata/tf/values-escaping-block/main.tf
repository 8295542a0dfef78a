# The escaping block "_" holds the arguments of a resource, a data
# source or a module call whose names would be meta-arguments', here
# arguments of any name, as OpenTofu takes them.
resource "terraform_data" "a" {
  count = 2
  _ {
    input = "escaped"
  }
}

resource "terraform_data" "b" {
  triggers_replace = 1
  _ {
    input = "mixed"
  }
}

data "terraform_remote_state" "r" {
  _ {
    backend = "local"
    config  = { path = "other.tfstate" }
  }
}

module "m" {
  source = "./m"
  _ {
    name = "escaped input"
  }
}

output "module" {
  value = module.m.name
}

output "a" {
  value = terraform_data.a[*].output
}

output "b" {
  value = terraform_data.b.output
}

output "remote" {
  value = data.terraform_remote_state.r.outputs.greeting
}
