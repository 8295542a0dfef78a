names = ["a", "b", "c"]
