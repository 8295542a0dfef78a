# rsadecrypt with the same RSA key in PKCS #1 PEM and in OpenSSH's format
# (as ssh-keygen writes it). The ciphertext is "hunter2" encrypted for it
# (openssl pkeyutl -encrypt, PKCS #1 v1.5 padding).
locals {
  ciphertext = "e3R4zfYSSij87k803MFYlMJqOpBShb7hxeOYwUzG71ad7WgE8hHahUXPUsdx1T6FzPSrC2Q4lt3MIlZtHaNMfJLypbbjadMB+HB2BOqkHTSk1UWNGZpj51R6vNKyETZS/k9IGRwSUBGn/pN+gOFq/hnJufJ9eJPqs+YfwmeDDc4="
}

output "pkcs1" {
  value = rsadecrypt(local.ciphertext, file("${path.module}/key.pem"))
}

output "openssh" {
  value = rsadecrypt(local.ciphertext, file("${path.module}/key"))
}
