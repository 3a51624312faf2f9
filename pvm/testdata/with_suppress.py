class suppress:
    def __init__(self, *types):
        self.types = types
    def __enter__(self):
        return self
    def __exit__(self, et, ev, tb):
        return et is not None and issubclass(et, self.types)
with suppress(KeyError):
    {}["x"]
print("suppressed KeyError")
try:
    with suppress(KeyError):
        raise ValueError("not suppressed")
except ValueError as e:
    print("escaped:", e)
class Recorder:
    def __init__(self):
        self.events = []
    def __enter__(self):
        self.events.append("enter")
        return self.events
    def __exit__(self, *a):
        self.events.append("exit")
r = Recorder()
with r as ev:
    ev.append("body")
print(r.events)
def gen_in_with():
    with Recorder() as ev:
        yield ev
g = gen_in_with()
print(next(g))
