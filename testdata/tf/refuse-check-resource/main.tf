# A check block holding a resource, which checks may not: refused by
# both.
check "c" {
  resource "terraform_data" "r" {
    input = "r"
  }

  assert {
    condition     = true
    error_message = "Never."
  }
}
