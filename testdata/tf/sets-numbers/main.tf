# Sets of numbers and of booleans, sorted by value, and a set of
# strings that look like numbers, sorted as strings.
locals {
  numbers = toset([10, 9, 100, -1, 0.5])
  strings = toset(["10", "9", "100", "-1"])
  bools   = toset([true, false, true])
}

resource "terraform_data" "n" {
  input = local.numbers
}

output "numbers" {
  value = local.numbers
}

output "strings" {
  value = local.strings
}

output "bools" {
  value = local.bools
}

output "stored" {
  value = terraform_data.n.output
}

output "sum" {
  value = sum(tolist(local.numbers))
}
