# lifecycle { enabled } (OpenTofu's): one instance or none, and a null
# value when none; lifecycle { destroy = false } retains the resource when
# it is deleted.
resource "test_thing" "on" {
  name = "on"
  lifecycle {
    enabled = true
    destroy = false
  }
}

resource "test_thing" "off" {
  name = "off"
  lifecycle {
    enabled = 1 > 2
  }
}

output "on" {
  value = test_thing.on.name
}

output "off" {
  value = test_thing.off == null ? "null" : "not null"
}

# A data source too: not read when disabled.
data "test_get_thing" "off" {
  name = "off"
  lifecycle {
    enabled = false
  }
}

output "read" {
  value = data.test_get_thing.off == null
}
