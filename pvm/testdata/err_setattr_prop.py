class P:
    @property
    def x(self):
        return 1
p = P()
print(p.x)
p.x = 2
