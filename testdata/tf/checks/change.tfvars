motd = "bye"
