# Data sources call provider functions; their arguments and results are
# spelled in snake_case, and they take count and for_each too.
data "test_lookup_zone" "main" {
  zone_name = "example.com"
}

data "test_get_thing" "each" {
  for_each = toset(["a", "b"])
  name     = each.key
}

resource "test_thing" "record" {
  name  = data.test_lookup_zone.main.zone_id
  items = data.test_lookup_zone.main.name_servers
}

output "uppers" {
  value = [for k, d in data.test_get_thing.each : d.upper]
}
