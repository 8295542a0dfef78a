# Variables take their values from the stack's configuration
# (corpus:<name>), converted to their type, with optional() defaults,
# validations, sensitive values as secrets and nullable = false.
variable "size" {
  type        = number
  description = "How many characters."
  validation {
    condition     = var.size >= 4 && var.size <= 32
    error_message = "size must be between 4 and 32."
  }
}

variable "settings" {
  type = object({
    name    = string
    tier    = optional(string, "basic")
    enabled = optional(bool, true)
  })
}

variable "token" {
  type      = string
  sensitive = true
}

variable "zones" {
  type    = list(string)
  default = ["a", "b"]
}

variable "label" {
  type     = string
  default  = "fallback"
  nullable = false
}

resource "test_thing" "t" {
  name     = var.settings.name
  length   = var.size
  password = var.token
  items    = var.zones
}

output "settings" {
  value = var.settings
}

output "label" {
  value = var.label
}

output "token" {
  value     = var.token
  sensitive = true
}
