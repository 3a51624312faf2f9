class C:
    pass
c = C()
c.x = 1
print(c.x)
print(c.y)
