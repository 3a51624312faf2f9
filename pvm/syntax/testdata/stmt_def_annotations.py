def f(a: int, b: str = 'x', *args: int, c: bool, **kw: dict) -> None:
    pass
def g(x: 'list[int]') -> 'int': return x
def h(a: int = 1, /, b: int = 2, *, c: int = 3) -> tuple[int, ...]:
    ...
