variable "legacy" {
  default    = ""
  deprecated = "The module ignores legacy."
}

output "size" {
  value      = 1
  deprecated = "size is always 1."
}
