variable "typed" {
  type = object({ input = list(string), output = list(string) })
}

variable "loose" {
  type = any
}

output "typed" {
  value = var.typed
}

output "loose" {
  value = var.loose
}

output "loose_keys" {
  value = keys(var.loose)
}
