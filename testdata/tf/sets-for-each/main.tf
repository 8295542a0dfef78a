# for_each over sets of strings: from toset, from a variable typed set
# and from a set function; the instances by key.
variable "names" {
  type    = set(string)
  default = ["gamma", "alpha", "beta"]
}

resource "terraform_data" "each" {
  for_each = var.names
  input    = "${each.key}/${each.value}"
}

resource "terraform_data" "union" {
  for_each = setunion(var.names, ["delta"])
  input    = upper(each.key)
}

output "each" {
  value = { for k, r in terraform_data.each : k => r.output }
}

output "union" {
  value = [for r in terraform_data.union : r.output]
}

output "keys" {
  value = keys(terraform_data.union)
}
