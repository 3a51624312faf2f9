class Temperature:
    scale = "C"
    def __init__(self, degrees):
        self.degrees = degrees
    @classmethod
    def from_fahrenheit(cls, f):
        return cls(round((f - 32) * 5 / 9, 1))
    @staticmethod
    def valid(d):
        return d > -273.15
    def __repr__(self):
        return f"{self.degrees}°{self.scale}"
class Kelvinish(Temperature):
    scale = "K?"
t = Temperature.from_fahrenheit(212)
k = Kelvinish.from_fahrenheit(32)
print(t, k, type(k).__name__, Temperature.valid(-300), t.valid(0))
print(Temperature.from_fahrenheit.__self__.__name__ if hasattr(Temperature.from_fahrenheit, "__self__") else "n/a")
class Registry:
    _items = []
    @classmethod
    def add(cls, x):
        cls._items.append(x)
        return len(cls._items)
    @classmethod
    def count(cls):
        return len(cls._items)
Registry.add("a"); Registry.add("b")
print(Registry.count(), Registry._items)
