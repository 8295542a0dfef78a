# Splats on sets and lists of objects, and on a single value.
variable "items" {
  type = set(object({ name = string, size = number }))
  default = [
    { name = "b", size = 2 },
    { name = "a", size = 1 },
  ]
}

variable "single" {
  type    = object({ name = string })
  default = { name = "solo" }
}

output "names" {
  value = var.items[*].name
}

output "sizes_list" {
  value = tolist(var.items)[*].size
}

output "single" {
  value = var.single[*].name
}

output "null_splat" {
  value = length(null[*])
}
