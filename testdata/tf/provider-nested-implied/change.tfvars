suffix = "b"
