# Moves as OpenTofu plans them, in change/: chained moved blocks (a to b
# to c), a module call renamed (a move, not a create and a delete), a
# resource moved into a module called from a module, and a module call
# moved into another module. The plan creates, updates, deletes and
# replaces nothing.
resource "terraform_data" "a" {
  input = "a"
}

module "old" {
  source = "./modules/app"
  name   = "old"
}

resource "terraform_data" "loose" {
  input = "loose"
}

module "net" {
  source = "./modules/net"
}

output "values" {
  value = [terraform_data.a.output, module.old.value, terraform_data.loose.output, module.net.value]
}
