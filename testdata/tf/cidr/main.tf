# The CIDR functions on addresses written with leading zeros, which
# Terraform reads as decimal (010 is 10), as Go's net package did before
# Go 1.17.
locals {
  base = "010.001.000.000/016"
}

output "hosts" {
  value = {
    first   = cidrhost(local.base, 5)
    bits    = cidrhost("10.0.0.0/0008", 257)
    last    = cidrhost("192.168.010.0/24", -1)
    netmask = cidrnetmask("172.016.0.0/12")
    zero    = cidrnetmask("0.0.0.0/00")
  }
}

output "subnets" {
  value = {
    one  = cidrsubnet(local.base, 8, 3)
    many = cidrsubnets("192.168.000.0/24", 2, 2, 4)
    v6   = cidrsubnets("fd00:fd12:3456:7890::/56", 16, 16, 32)
  }
}

output "contains" {
  value = {
    address = cidrcontains("010.0.0.0/8", "10.1.2.3")
    padded  = cidrcontains("10.0.0.0/8", "010.001.002.003")
    prefix  = cidrcontains("10.0.0.0/8", "010.1.0.0/16")
    outside = cidrcontains("10.0.0.0/8", "011.1.0.0/16")
  }
}
