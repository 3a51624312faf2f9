if (n := len(a)) > 10:
    pass
while (chunk := read()):
    pass
[y := f(x), y**2]
print(z := 1)
xs = [v for x in data if (v := g(x))]
