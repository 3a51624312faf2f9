from __future__ import annotations
def f(a: int, *b: str, c: A | None = None, **d: "x") -> list[int]: pass
print(f.__annotations__)
class K:
    def m(self, __p: __Q) -> __R: pass
print(K.m.__annotations__)
def g(x: Undefined): pass
print(g.__annotations__)
class C:
    __x: int = 1
    y: __T
    def m(self, a: "C", *, k: C = None) -> C: pass
print(C.__annotations__, C.m.__annotations__, C.m.__kwdefaults__)
