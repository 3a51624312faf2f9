if a:
    pass
if a:
    x
else:
    y
if a:
    x
elif b:
    y
elif c:
    z
else:
    w
if a: b; c
