# A new keeper replaces the ID, the integer and the shuffle; a longer
# password replaces it; the pet and the imported ones stay.
keeper = "two"
length = 20
