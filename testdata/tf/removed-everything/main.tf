# An apply that leaves no resource (change/ removes both), then a plan of
# the empty configuration (change2/) with nothing to do.
resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  count = 2
  input = count.index
}

output "a" {
  value = terraform_data.a.output
}
