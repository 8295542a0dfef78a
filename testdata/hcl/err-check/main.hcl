# Check blocks Terraform refuses: two data blocks, count, for_each and
# lifecycle in a scoped data block, and no assert block.
check "two" {
  data "test_get_thing" "a" {
    name = "a"
  }
  data "test_get_thing" "b" {
    name = "b"
  }
  assert {
    condition     = true
    error_message = "never shown"
  }
}

check "counted" {
  data "test_get_thing" "c" {
    count    = 1
    for_each = toset(["x"])
    name     = "c"
  }
  assert {
    condition     = true
    error_message = "never shown"
  }
}

check "lifecycle" {
  data "test_get_thing" "l" {
    name = "l"
    lifecycle {
      postcondition {
        condition     = true
        error_message = "never shown"
      }
    }
  }
  assert {
    condition     = true
    error_message = "never shown"
  }
}

check "empty" {
  data "test_get_thing" "e" {
    name = "e"
  }
}
