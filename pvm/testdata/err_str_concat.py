count = 3
msg = "count: " + count
