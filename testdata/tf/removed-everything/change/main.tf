output "none" {
  value = "no resources"
}
