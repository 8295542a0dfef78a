terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

resource "terraform_data" "seed" {
  input = "seed"
}

module "outer" {
  source = "./outer"
}

import {
  to = module.outer.module.inner.cairnfw_file.f
  id = "single"
}

output "seed" {
  value = terraform_data.seed.output
}
