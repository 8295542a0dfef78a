resource "test_thing" "missing" {
  name = "x"
}
