# A resource moved and changed at once (change/): an update at its new
# address; another moved and replaced through triggers_replace.
resource "terraform_data" "a" {
  input = "before"
}

resource "terraform_data" "b" {
  input            = "b"
  triggers_replace = "one"
}

output "values" {
  value = [terraform_data.a.output, terraform_data.b.output]
}
