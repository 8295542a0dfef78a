# A removed block names a resource or a module call, never an instance
# of one: OpenTofu refuses terraform_data.a[1] and a resource of
# module.m[0] when it reads the configuration (init), each at its
# address.
resource "terraform_data" "stays" {
  input = "stays"
}

removed {
  from = terraform_data.a[1]

  lifecycle {
    destroy = false
  }
}

removed {
  from = module.m[0].terraform_data.b

  lifecycle {
    destroy = false
  }
}
