variable "name" {
  type = string
}

variable "tier" {
  type    = string
  default = "basic"
}

resource "test_thing" "frontend" {
  name = "${var.name}-frontend"
}

module "bucket" {
  source = "./modules/bucket"
  prefix = "${var.name}-${var.tier}"
}

output "bucket" {
  value = module.bucket.name
}

output "frontend" {
  value = test_thing.frontend.name
}
