class A:
    pass
class B(A):
    x = 1
    def m(self):
        return self.x
class C(A, B, metaclass=M, **kw):
    '''doc'''
class D():
    pass
class E(*bases): pass
