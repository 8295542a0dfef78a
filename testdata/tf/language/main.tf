# OpenTofu 1.12's language block: the versions of OpenTofu the module
# works with (other software's arguments in compatible_with are left to
# it), the one edition, no experiments; Terraform's language argument in
# a terraform block, which OpenTofu ignores.
language {
  edition     = tofu2024
  experiments = []

  compatible_with {
    opentofu = ">= 1.12.0"
    other    = "~> 2.0"
  }
}

terraform {
  language = TF2021
}

output "edition" {
  value = "tofu2024"
}
