resource "cairnfw_file" "b" {
  name    = "b"
  content = "in m"
}

output "size" {
  value = cairnfw_file.b.size
}
