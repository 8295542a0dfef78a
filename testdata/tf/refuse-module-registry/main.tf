# A registry module address (NAMESPACE/NAME/PROVIDER) with a version
# constraint: with no network to ask the registry, both refuse.
module "m" {
  source  = "cairn-iac/nothing/aws"
  version = "~> 1.0"
}
