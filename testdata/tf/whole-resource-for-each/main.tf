# A resource with for_each used whole is a map of its instances'
# objects by key; another resource's for_each over it.
resource "terraform_data" "base" {
  for_each = { x = "one", y = "two" }
  input    = each.value
}

resource "terraform_data" "chained" {
  for_each = terraform_data.base
  input    = "${each.key}=${each.value.output}"
}

output "keys" {
  value = keys(terraform_data.base)
}

output "chained" {
  value = { for k, r in terraform_data.chained : k => r.output }
}

output "attribute_names" {
  value = { for k, r in terraform_data.base : k => keys(r) }
}

output "values_inputs" {
  value = [for r in values(terraform_data.base) : r.input]
}
