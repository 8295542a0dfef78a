names   = { a = "alpha", b = "beta2" }
content = "two"
