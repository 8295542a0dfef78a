# A root resource moved into an instance of a module with for_each, and
# a counted resource's instances moved into the other instance
# (change/).
resource "terraform_data" "x" {
  input = "a"
}

resource "terraform_data" "y" {
  count = 1
  input = "b"
}

output "values" {
  value = [terraform_data.x.output, terraform_data.y[0].output]
}
