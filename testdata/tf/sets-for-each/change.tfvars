names = ["alpha", "epsilon"]
