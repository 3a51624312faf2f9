d = {}
d[(1, 2)] = "ok"
print(d)
d[[1, 2]] = "bad"
