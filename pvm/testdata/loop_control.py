result = []
for i in range(3):
    for j in range(3):
        if j == 2:
            break
        if (i + j) % 2:
            continue
        result.append((i, j))
    else:
        result.append("no-break")
print(result)
i = 0
while True:
    i += 1
    if i % 2:
        continue
    if i > 8:
        break
    print("even", i)
total = 0
for x in range(100):
    if x > 10:
        break
    total += x
else:
    total = -1
print(total)
for ch in "":
    print("never")
else:
    print("empty loop else")
nested = [[1, 2], [3, 4]]
found = None
for row in nested:
    for v in row:
        if v == 3:
            found = v
            break
    if found:
        break
print(found)
