# Values as Terraform keeps them: a whole resource is the object of its
# attributes (no urn, id by its schema), which a for expression filters;
# quoted references in depends_on and an escaping block, as OpenTofu
# takes them; a root output whose value is null is left out.
resource "terraform_data" "a" {
  _ {
    input = { zones = toset(["b", "a"]) }
  }
}

resource "terraform_data" "b" {
  input      = { for k, v in terraform_data.a : k => v if k != "id" }
  depends_on = ["terraform_data.a"]
}

output "keys" {
  value = keys(terraform_data.a)
}

output "held" {
  value = keys(terraform_data.b.output)
}

output "zones" {
  value = terraform_data.b.output.input.zones
}

output "gone" {
  value = null
}
