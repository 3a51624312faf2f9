for x in y:
    pass
for x, y in z:
    pass
for (a, b), c in d:
    pass
for x in y:
    pass
else:
    done()
for i in range(10): print(i)
for x, in y: pass
for a.b in c: pass
for a[0] in c: pass
