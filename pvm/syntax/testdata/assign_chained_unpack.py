a = b = c = d = 0
x, y = y, x = 1, 2
for [p, q] in pairs: pass
