v       = "two"
content = "c2"
