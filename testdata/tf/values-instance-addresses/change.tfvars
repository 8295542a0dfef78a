names = ["a", "c", "d", "e"]
