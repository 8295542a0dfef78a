variable "extra" {
  type = bool
}

resource "cairnfw_file" "b" {
  count   = var.extra ? 2 : 1
  name    = "m-${count.index}"
  content = "in m ${count.index}"
}

output "sizes" {
  value = cairnfw_file.b[*].size
}
