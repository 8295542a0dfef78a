v = "two"
