output "none" {
  value = "still no resources"
}
