print(*a)
x = [*a, *b]
y = {*a, *b}
z = (*a, *b)
w = {**a, 'k': 1, **b}
for x in *a, *b: pass
return_value = *a, b
