variable "labels" {
  type = map
}

output "labels" {
  value = { for k, v in var.labels : k => "${k}=${v}" if v != "2" }
}
