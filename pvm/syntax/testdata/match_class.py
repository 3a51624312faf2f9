match p:
    case Point():
        pass
    case Point(0, 0):
        pass
    case Point(x=0, y=0):
        pass
    case Point(1, y=2):
        pass
    case mod.Point(x=[a, b]):
        pass
    case int(n) | float(n):
        pass
    case a.b.C(d=e):
        pass
