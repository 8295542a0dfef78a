sources = ["s0-changed", "s1"]
keyed   = { a = "a", b = "b-changed" }
single  = "two"
