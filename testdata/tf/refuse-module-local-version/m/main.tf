output "value" {
  value = "m"
}
