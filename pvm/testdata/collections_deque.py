from collections import deque

q = deque([1, 2, 3])
q.append(4)
q.appendleft(0)
print(q, len(q), q[0], q[-1])
print(q.popleft(), q.pop(), q)
q.extend([7, 8])
q.extendleft([-1, -2])
print(q)
q.rotate(2)
print(q)
q.rotate(-3)
print(q, 7 in q, q.count(7), q.index(7))
q.remove(7)
q.reverse()
print(q, list(q), bool(q), bool(deque()))
window = deque(maxlen=3)
for price in [10, 11, 12, 13, 14]:
    window.append(price)
    print(list(window), sum(window) / len(window))
print(window, window.maxlen)
try:
    deque().pop()
except IndexError as e:
    print("IndexError", e)
tasks = deque(["a", "b", "c"])
while tasks:
    t = tasks.popleft()
    print("run", t)
    if t == "a":
        tasks.append("a2")
print(deque([1, 2]) == deque([1, 2]), deque([1]) + deque([2, 3]))
d2 = q.copy()
d2.clear()
print(d2, q)
