resource "test_thing" "inner" {
  name = "inner"
}
