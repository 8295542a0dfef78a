# hashicorp/tls: a CA and a certificate it signs, with subject blocks,
# lists of usages, sensitive private keys and a data source reading one.
terraform {
  required_providers {
    tls = { source = "hashicorp/tls", version = ">= 4.0" }
  }
}

variable "org" {
  type    = string
  default = "Example"
}

variable "uses" {
  type    = list(string)
  default = ["key_encipherment", "digital_signature", "server_auth"]
}

resource "tls_private_key" "ca" {
  algorithm   = "ECDSA"
  ecdsa_curve = "P256"
}

resource "tls_self_signed_cert" "ca" {
  private_key_pem       = tls_private_key.ca.private_key_pem
  is_ca_certificate     = true
  validity_period_hours = 48
  allowed_uses          = ["cert_signing", "crl_signing"]

  subject {
    common_name  = "ca.example.com"
    organization = var.org
  }
}

resource "tls_private_key" "server" {
  algorithm = "ED25519"
}

resource "tls_cert_request" "server" {
  private_key_pem = tls_private_key.server.private_key_pem
  dns_names       = ["a.example.com", "b.example.com"]

  subject {
    common_name  = "a.example.com"
    organization = var.org
  }
}

resource "tls_locally_signed_cert" "server" {
  cert_request_pem      = tls_cert_request.server.cert_request_pem
  ca_private_key_pem    = tls_private_key.ca.private_key_pem
  ca_cert_pem           = tls_self_signed_cert.ca.cert_pem
  validity_period_hours = 24
  allowed_uses          = var.uses
}

data "tls_public_key" "server" {
  private_key_pem = tls_private_key.server.private_key_pem
}

output "ca_subject" {
  value = tls_self_signed_cert.ca.subject
}

output "no_country" {
  value = tls_self_signed_cert.ca.subject[0].country == null
}

output "same_public_key" {
  value = data.tls_public_key.server.public_key_openssh == tls_private_key.server.public_key_openssh
}

output "uses" {
  value = tls_locally_signed_cert.server.allowed_uses
}

output "is_ca" {
  value = [tls_self_signed_cert.ca.is_ca_certificate, tls_locally_signed_cert.server.is_ca_certificate]
}

output "key_is_pem" {
  value     = startswith(tls_private_key.server.private_key_pem, "-----BEGIN PRIVATE KEY-----")
  sensitive = true
}
