resource "test_thing" "inner" {}
