# A module source in scp-like form (git@github.com:ORG/REPO.git), which
# Terraform detects as git over SSH: with no network, both refuse.
module "m" {
  source = "git@github.com:cairn-iac/no-such-module.git"
}
