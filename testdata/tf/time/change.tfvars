# A new stamp replaces the static time, the rotation and the sleep; the
# offset changes in place.
stamp = "2091-06-07T08:09:10Z"
