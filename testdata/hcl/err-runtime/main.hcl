# Values of the wrong type are reported where they are written.
variable "len" {
  default = "many"
}

resource "random_string" "s" {
  length = var.len
}

resource "test_thing" "t" {
  count = -1
}
