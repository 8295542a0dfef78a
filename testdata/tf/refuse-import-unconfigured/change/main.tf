resource "terraform_data" "seed" {
  input = "seed"
}

import {
  to = terraform_data.missing
  id = "anything"
}

output "seed" {
  value = terraform_data.seed.output
}
