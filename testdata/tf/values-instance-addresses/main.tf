# Instances of count and for_each in outputs: by index, by key, splats,
# and maps built from their keys; a change adds and removes instances.
variable "names" {
  type    = list(string)
  default = ["a", "b", "c"]
}

resource "terraform_data" "counted" {
  count = length(var.names)
  input = var.names[count.index]
}

resource "terraform_data" "keyed" {
  for_each = toset(var.names)
  input    = "k-${each.key}"
}

output "by_index" {
  value = { for i, r in terraform_data.counted : i => r.output }
}

output "last" {
  value = terraform_data.counted[length(var.names) - 1].output
}

output "by_key" {
  value = { for k, r in terraform_data.keyed : k => r.output }
}

output "first_key" {
  value = terraform_data.keyed["a"].output
}

output "splat" {
  value = terraform_data.counted[*].output
}
