length = 24
