# hashicorp/local: a file and a sensitive file written in the
# configuration's folder, and a data source reading the first back.
terraform {
  required_providers {
    local = { source = "hashicorp/local", version = ">= 2.4" }
  }
}

variable "greeting" {
  type    = string
  default = "hello"
}

resource "local_file" "greeting" {
  filename        = "${path.module}/out/greeting.txt"
  content         = "${var.greeting}, world\n"
  file_permission = "0640"
}

resource "local_sensitive_file" "token" {
  filename = "${path.module}/out/token.txt"
  content  = "token-${var.greeting}"
}

resource "local_file" "fixed" {
  filename       = "${path.module}/out/fixed.bin"
  content_base64 = base64encode("fixed")
}

data "local_file" "greeting" {
  filename = local_file.greeting.filename
}

output "sha256" {
  value = local_file.greeting.content_sha256
}

output "read_back" {
  value = data.local_file.greeting.content
}

output "permissions" {
  value = [local_file.greeting.file_permission, local_sensitive_file.token.file_permission]
}

output "token_md5" {
  value = local_sensitive_file.token.content_md5
}
