x: int
y: str = 'a'
(z): int = 3
a.b: list[int] = []
c[0]: float
d: 'forward' = None
def f():
    e: int = 1
