variable "prefix" {
  type        = string
  default     = "demo"
  description = "Put in front of every pet name."
}

variable "servers" {
  type    = set(string)
  default = ["web", "api"]
}

resource "random_pet" "server" {
  for_each = var.servers
  prefix   = "${var.prefix}-${each.key}"
  length   = 2
}

resource "random_password" "token" {
  length  = 20
  special = false
}

# Each greeting waits only for its own server's pet.
resource "command_local_command" "greeting" {
  for_each = random_pet.server
  create   = "echo hello, ${each.value.id}"
  triggers = [each.value.id]
}

check "names" {
  assert {
    condition     = alltrue([for p in random_pet.server : startswith(p.id, var.prefix)])
    error_message = "every pet name starts with the prefix"
  }
}

output "greetings" {
  value = { for k, g in command_local_command.greeting : k => g.stdout }
}

output "token" {
  value     = random_password.token.result
  sensitive = true
}
