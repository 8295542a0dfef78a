# can and try: missing attributes and keys, failed conversions and
# indexes, the first of several that works, and a value that is fine.
variable "config" {
  type    = any
  default = { name = "web", ports = [80, 443], nested = { deep = "yes" } }
}

output "try" {
  value = {
    missing_attr = try(var.config.missing, "default")
    present      = try(var.config.name, "default")
    deep         = try(var.config.nested.deep, "no")
    deep_missing = try(var.config.nested.none.x, "no")
    bad_index    = try(var.config.ports[5], -1)
    first_works  = try(tonumber("x"), tonumber("12"), 0)
    decode       = try(jsondecode("{bad"), { fallback = true })
  }
}

output "can" {
  value = [can(var.config.ports[1]), can(var.config.nope), can(regex("^w", var.config.name)), can(regex("^z", var.config.name))]
}
