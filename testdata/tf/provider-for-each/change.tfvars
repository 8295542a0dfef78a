stores = ["a", "b", "c"]
