this file is not HCL a Terraform configuration reads
