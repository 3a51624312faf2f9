x = "global"
def read():
    return x
def shadow():
    x = "local"
    return x
print(read(), shadow(), x)
def unbound():
    try:
        print(y)
        y = 1
    except UnboundLocalError as e:
        print("UnboundLocalError:", e)
unbound()
class K:
    a = 1
    b = [a * i for i in range(2)] if False else a + 1
    def m(self):
        return a_global
a_global = "ag"
print(K.a, K.b, K().m())
del x
try:
    print(x)
except NameError as e:
    print(e)
def deleter():
    v = 1
    del v
    return "deleted"
print(deleter())
