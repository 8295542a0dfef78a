# A check whose assertion references nothing in the configuration (only
# constants and functions of them): refused by both, as it would check
# nothing.
check "constant" {
  assert {
    condition     = length("abc") == 3
    error_message = "The string has three characters."
  }
}

output "x" {
  value = "x"
}
