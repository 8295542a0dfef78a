greeting   = "bye"
generation = 2
