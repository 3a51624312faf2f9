def level1(x):
    return level2(x) + 1
def level2(x):
    return level3(x) * 2
def level3(x):
    return [1, 2, 3][x]
print(level1(1))
print(level1(7))
