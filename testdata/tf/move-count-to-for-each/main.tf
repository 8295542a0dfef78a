# A counted resource's instances moved to keys of for_each (change/),
# one of them dropped without a move.
resource "terraform_data" "x" {
  count = 3
  input = "v${count.index}"
}

output "values" {
  value = terraform_data.x[*].output
}
