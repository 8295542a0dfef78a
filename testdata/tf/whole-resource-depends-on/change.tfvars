gen = 2
