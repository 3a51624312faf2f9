class Res:
    def __init__(self, name):
        self.name = name
    def __enter__(self):
        print("open", self.name)
        return self.name.upper()
    def __exit__(self, et, ev, tb):
        print("close", self.name, et.__name__ if et else None)
        return False
with Res("a") as x, Res("b") as y:
    print("inside", x, y)
try:
    with Res("c"):
        raise KeyError("oops")
except KeyError as e:
    print("propagated", e)
def early():
    with Res("d"):
        return "returned"
print(early())
for i in range(2):
    with Res(str(i)):
        if i == 0:
            continue
        print("second")
