# A provider block no resource uses: Terraform installs its provider
# (hashicorp/cairnsdk, implied) but neither configures nor validates it,
# so its missing required dir is no error. The root's unused default
# configuration is not passed to the module either.
provider "cairnsdk" {}

provider "cairnfw" {
  dir = "store"
}

resource "cairnfw_file" "a" {
  name    = "a"
  content = "one"
}

module "m" {
  source = "./m"
}

output "sizes" {
  value = [cairnfw_file.a.size, module.m.size]
}
