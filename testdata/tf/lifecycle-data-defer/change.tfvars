content = "second"
name    = "other"
