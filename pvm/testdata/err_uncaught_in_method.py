# An uncaught error deep in method calls: every frame is listed.
class Vault:
    def __init__(self):
        self.items = {}

    def put(self, k, v):
        self.items[k] = v

    def take(self, k):
        return self._remove(k)

    def _remove(self, k):
        v = self.items.pop(k)
        return v


v = Vault()
v.put("gold", 5)
print(v.take("gold"))
print(v.take("gold"))
