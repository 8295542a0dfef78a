on = false
