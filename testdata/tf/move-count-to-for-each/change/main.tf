resource "terraform_data" "x" {
  for_each = { a = "v0", b = "v1" }
  input    = each.value
}

moved {
  from = terraform_data.x[0]
  to   = terraform_data.x["a"]
}

moved {
  from = terraform_data.x[1]
  to   = terraform_data.x["b"]
}

output "values" {
  value = [for k, v in terraform_data.x : v.output]
}
