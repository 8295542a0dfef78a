# A whole resource used as a value is Terraform's object of its
# attributes: keys() lists them (id as the schema declares it), with
# nothing of Cairn's own (no urn, no __meta).
resource "terraform_data" "a" {
  input = { name = "a", zones = toset(["b", "a"]) }
}

locals {
  whole = terraform_data.a
}

output "keys" {
  value = keys(terraform_data.a)
}

output "without_id" {
  value = { for k, v in terraform_data.a : k => v if k != "id" }
}

output "id_is_string" {
  value = length(local.whole.id) > 0
}

output "in_list" {
  value = [for r in [terraform_data.a] : r.input.name]
}

output "jsonencoded_length" {
  value = length(keys(jsondecode(jsonencode(terraform_data.a))))
}
