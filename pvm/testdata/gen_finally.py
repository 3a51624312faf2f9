def g():
    try:
        yield 1
        yield 2
    finally:
        print("cleanup")
for x in g():
    print(x)
def h():
    with open_res("r") as r:
        yield r
        yield r + "!"
class open_res:
    def __init__(self, n): self.n = n
    def __enter__(self):
        print("enter", self.n)
        return self.n
    def __exit__(self, *a):
        print("exit", self.n)
print(list(h()))
def nested_gen():
    for i in range(2):
        try:
            yield i
        except ValueError:
            yield "caught"
ng = nested_gen()
print(next(ng), ng.throw(ValueError()), next(ng), next(ng, "end"))
def counter_gen():
    count = 0
    while True:
        cmd = yield count
        if cmd == "reset":
            count = 0
        elif cmd == "stop":
            return count
        else:
            count += 1
cg = counter_gen()
print(next(cg), cg.send(None), cg.send(None), cg.send("reset"), cg.send(None))
try:
    cg.send("stop")
except StopIteration as e:
    print("stopped with", e.value)
