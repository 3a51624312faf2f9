total = 0
def add(n):
    global total
    total += n
for i in range(5):
    add(i)
print(total)
def make():
    x = 0
    def get():
        return x
    def inc():
        nonlocal x
        x += 1
    return get, inc
g, i = make()
i(); i()
print(g())
def outer():
    v = "a"
    def mid():
        nonlocal v
        v += "b"
        def inner():
            nonlocal v
            v += "c"
        inner()
    mid()
    return v
print(outer())
counter = [0]
def bump():
    counter[0] += 1
bump(); bump()
print(counter)
