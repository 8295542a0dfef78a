# optional() attributes with defaults, nested in lists, maps and
# objects, and null given for an optional attribute.
variable "services" {
  type = map(object({
    port     = number
    protocol = optional(string, "tcp")
    tags     = optional(set(string), [])
    health = optional(object({
      path     = optional(string, "/")
      interval = optional(number, 30)
    }), {})
    extra = optional(string)
  }))
  default = {
    web = { port = 80, tags = ["b", "a"] }
    dns = { port = 53, protocol = "udp", health = { interval = 5 } }
    api = { port = 8080, health = null }
  }
}

variable "list_of" {
  type = list(object({
    name    = string
    enabled = optional(bool, true)
  }))
  default = [{ name = "one" }, { name = "two", enabled = false }]
}

output "services" {
  value = var.services
}

output "list_of" {
  value = var.list_of
}

output "enabled_names" {
  value = [for s in var.list_of : s.name if s.enabled]
}
