pass
while True:
    break
for x in y:
    continue
while 1: pass
