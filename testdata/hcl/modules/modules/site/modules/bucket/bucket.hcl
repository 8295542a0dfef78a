variable "prefix" {
  type = string
}

resource "test_thing" "bucket" {
  name = "${var.prefix}-bucket"
}

output "name" {
  value = test_thing.bucket.name
}
