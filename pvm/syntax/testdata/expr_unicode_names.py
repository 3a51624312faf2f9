café = 1
π = 3.14
x = 'élève' + café
def über(ä): return ä
print(über(π), x)
