while a:
    b
while a:
    b
else:
    c
while True:
    if x: break
    continue
