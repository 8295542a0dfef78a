# The type keywords list and map alone (list(any) and map(any)): their
# elements take one type, as Terraform converts them.
variable "tags" {
  type    = map
  default = { team = "web", size = 3, public = true }
}

variable "ports" {
  type    = list
  default = [80, "443", false]
}

variable "nested" {
  type    = map(any)
  default = { a = [1, 2], b = [3] }
}

module "child" {
  source = "./child"
  labels = { env = "dev", replicas = 2 }
}

output "tags" {
  value = var.tags
}

output "ports" {
  value = var.ports
}

output "nested" {
  value = var.nested
}

output "is_map" {
  value = var.tags == tomap({ team = "web", size = "3", public = "true" })
}

output "child" {
  value = module.child.labels
}
