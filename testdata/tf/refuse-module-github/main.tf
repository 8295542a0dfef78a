# A module source Terraform detects as GitHub without a git:: prefix
# (github.com/ORG/REPO): with no network to fetch it, both refuse.
module "m" {
  source = "github.com/cairn-iac/no-such-module"
}
