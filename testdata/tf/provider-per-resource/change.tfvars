content = "two"
