# Modules from a git repository: one called whole (it calls a module of
# its own package by a local path), one by a folder within it; and a
# local module with no resources.
module "greet" {
  source = "git::file://REPOS/greet?ref=v1"
  name   = "corpus"
}

module "shout" {
  source = "git::file://REPOS/greet//shout?ref=v1"
  text   = "quiet"
}

output "greeting" {
  value = module.greet.greeting
}

output "shout" {
  value = module.shout.text
}

output "has_id" {
  value = module.greet.id != ""
}

module "label" {
  source = "./label"
  parts  = ["corpus", module.shout.text]
}

output "label" {
  value = module.label.label
}
