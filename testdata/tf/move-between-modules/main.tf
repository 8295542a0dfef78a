# A resource moved from one module call to a resource of another name
# in a module of another source (change/), which also gets a new
# resource.
module "a" {
  source = "./a"
  name   = "moving"
}

output "value" {
  value = module.a.value
}
