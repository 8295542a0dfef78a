# A counted resource used whole is a tuple of its instances' objects;
# the splat of it and of an attribute, length, and an instance.
resource "terraform_data" "n" {
  count = 3
  input = count.index * 10
}

output "inputs" {
  value = [for r in terraform_data.n : r.output]
}

output "splat" {
  value = terraform_data.n[*].input
}

output "keys_of_each" {
  value = [for r in terraform_data.n : keys(r)]
}

output "length" {
  value = length(terraform_data.n)
}

output "second" {
  value = { for k, v in terraform_data.n[1] : k => v if k != "id" }
}
