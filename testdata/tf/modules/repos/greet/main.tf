variable "name" {
  type = string
}

resource "terraform_data" "greeting" {
  input = "hello, ${var.name}"
}

module "shout" {
  source = "./shout"
  text   = terraform_data.greeting.output
}

output "greeting" {
  value = module.shout.text
}

output "id" {
  value = terraform_data.greeting.id
}
