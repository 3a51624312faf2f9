n = 3
g = (i * n for i in range(4))
n = 10
print(list(g))
xs = [1, 2, 3]
g2 = (x for x in xs)
xs = [9]
print(list(g2))
print(sum(x * y for x in range(3) for y in range(3) if x != y))
print(list((a, b) for a in "ab" for b in "12"))
def gen_of_gens():
    return [(lambda i=i: i) for i in range(3)]
print([f() for f in gen_of_gens()])
