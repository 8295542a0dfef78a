resource "test_thing" "inner" { name = "adopted" }
