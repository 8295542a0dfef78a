token = "def"
