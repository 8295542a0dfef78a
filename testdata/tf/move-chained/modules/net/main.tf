resource "terraform_data" "n" {
  input = "net"
}

output "value" {
  value = terraform_data.n.output
}
