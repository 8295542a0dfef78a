size = 5
