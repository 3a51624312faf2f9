x = a if b else c
y = a if b else c if d else e
z = (a if b else c)
