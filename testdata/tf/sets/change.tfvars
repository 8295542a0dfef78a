zones = ["b", "d"]
