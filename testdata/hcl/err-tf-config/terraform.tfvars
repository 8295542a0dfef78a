count_of = "many"
