trigger = "two"
