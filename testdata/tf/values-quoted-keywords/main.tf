# Quoted keywords in provisioners and quoted references in depends_on,
# as Terraform 0.11 wrote them: deprecated, taken with a warning.
resource "terraform_data" "first" {
  input = "first"
}

resource "terraform_data" "second" {
  input      = "second"
  depends_on = ["terraform_data.first"]

  provisioner "local-exec" {
    command    = "exit 1"
    on_failure = "continue"
  }

  provisioner "local-exec" {
    command = "true"
    when    = "destroy"
  }
}

output "second" {
  value = terraform_data.second.output
}
