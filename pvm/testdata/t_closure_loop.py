fs = []
for i in range(3):
    def f(i=i):
        return i
    fs.append(f)
print([f() for f in fs])
gs = [lambda: i for i in range(3)]
print([g() for g in gs])
def make(n):
    return lambda x: x ** n
sq, cube = make(2), make(3)
print(sq(4), cube(2))
