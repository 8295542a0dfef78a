# Functions of Terraform's that real configurations use: rsadecrypt,
# base64gunzip, and templatestring, whose templates may render others.
locals {
  row   = "<td>$${cell}</td>"
  table = "<tr>%%{ for c in cells }$${templatestring(row, { cell = c })}%%{ endfor }</tr>"
}

output "password" {
  value     = rsadecrypt("e3R4zfYSSij87k803MFYlMJqOpBShb7hxeOYwUzG71ad7WgE8hHahUXPUsdx1T6FzPSrC2Q4lt3MIlZtHaNMfJLypbbjadMB+HB2BOqkHTSk1UWNGZpj51R6vNKyETZS/k9IGRwSUBGn/pN+gOFq/hnJufJ9eJPqs+YfwmeDDc4=", file("key.pem"))
  sensitive = true
}

output "unzipped" {
  value = base64gunzip(base64gzip("hello"))
}

output "table" {
  value = templatestring(local.table, { row = local.row, cells = ["a", "b"] })
}
