resource "terraform_data" "renamed" {
  input = "after"
}

moved {
  from = terraform_data.a
  to   = terraform_data.renamed
}

resource "terraform_data" "replaced" {
  input            = "b"
  triggers_replace = "two"
}

moved {
  from = terraform_data.b
  to   = terraform_data.replaced
}

output "values" {
  value = [terraform_data.renamed.output, terraform_data.replaced.output]
}
