name = "second"
