variable "token" {
  type      = string
  ephemeral = true
}

output "upper" {
  value     = upper(var.token)
  ephemeral = true
}

output "kept" {
  value = ephemeralasnull(var.token)
}
