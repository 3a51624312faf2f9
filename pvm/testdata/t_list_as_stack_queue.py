stack = []
for i in range(5):
    stack.append(i * i)
out = []
while stack:
    out.append(stack.pop())
print(out)
q = list("abcde")
order = []
added = False
while q:
    order.append(q.pop(0))
    if len(q) == 2 and not added:
        q.append("z")
        added = True
print(order)
