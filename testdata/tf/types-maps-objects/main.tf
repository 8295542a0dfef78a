# Objects and maps: tomap unifies values, merge of objects and maps,
# lookup with defaults (null among them), keys sorted.
locals {
  obj = { b = 1, a = "two", c = true }
  map = tomap({ x = 1, y = 2 })
}

output "tomap" {
  value = tomap({ b = 1, a = "two" })
}

output "merged" {
  value = merge(local.obj, local.map, { z = [1] })
}

output "lookups" {
  value = {
    found        = lookup(local.map, "x", 0)
    missing      = lookup(local.map, "q", 9)
    null_default = lookup({ a = "x" }, "b", null) == null
    in_object    = lookup(local.obj, "a", "none")
  }
}

output "keys_values" {
  value = [keys(local.obj), values(local.map)]
}

output "zipmap" {
  value = zipmap(["k2", "k1"], [2, 1])
}

output "empty" {
  value = [{}, tomap({})]
}
