data = [1, 2, 0, 4]
print([10 // x for x in data if x])
print([10 // x for x in data])
