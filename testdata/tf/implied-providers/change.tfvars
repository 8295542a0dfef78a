content = "two"
extra   = true
