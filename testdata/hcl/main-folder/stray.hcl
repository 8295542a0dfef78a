# Beside Pulumi.yaml but outside the main folder: not part of the program.
output "stray" {
  value = "read"
}
