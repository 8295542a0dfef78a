# A failed check is a warning; the update goes on.
resource "test_thing" "t" {
  name   = "t"
  length = 3
}

check "length" {
  assert {
    condition     = test_thing.t.length > 5
    error_message = "length is ${test_thing.t.length}, less than 6."
  }
  assert {
    condition     = test_thing.t.name == "t"
    error_message = "never shown"
  }
}

output "name" {
  value = test_thing.t.name
}

# A data source scoped to a check: read with the check, for its
# assertions only.
check "upper" {
  data "test_get_thing" "t" {
    name = test_thing.t.name
  }

  assert {
    condition     = data.test_get_thing.t.upper == "U"
    error_message = "The name in capitals is ${data.test_get_thing.t.upper}."
  }
}
