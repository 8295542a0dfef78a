first    = "two"
count_of = 2
