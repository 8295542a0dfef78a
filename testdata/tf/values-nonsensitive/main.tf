# nonsensitive and sensitive: a value derived from a secret made plain
# again, one marked sensitive by hand, and what stays plain beside them.
variable "token" {
  type      = string
  default   = "abc123"
  sensitive = true
}

output "length_plain" {
  value = nonsensitive(length(var.token))
}

output "prefix_plain" {
  value = nonsensitive(substr(var.token, 0, 3))
}

output "marked" {
  value     = sensitive("not really secret")
  sensitive = true
}

output "marked_then_plain" {
  value = nonsensitive(sensitive("open"))
}

output "map_of_plain" {
  value = { for k, v in { a = var.token } : k => nonsensitive(v == "abc123") }
}
