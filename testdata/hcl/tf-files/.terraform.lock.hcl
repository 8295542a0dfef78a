provider "registry.terraform.io/hashicorp/null" {
  version = "3.2.4"
}
