# Secrets may reach for_each and count where they do not name instances:
# secret values under plain keys, keys made plain with nonsensitive(), and
# a count derived from a secret (only the number of instances shows).
variable "tags" {
  type      = map(string)
  sensitive = true
}

resource "test_thing" "by_plain_keys" {
  for_each = { for k in nonsensitive(keys(var.tags)) : k => var.tags[k] }
  name     = each.key
  password = each.value
}

resource "test_thing" "by_secret_values" {
  for_each = { "alpha" = var.tags["alpha"] }
  value    = each.value
}

resource "test_thing" "counted" {
  count = length(var.tags)
  name  = "n-${count.index}"
}
