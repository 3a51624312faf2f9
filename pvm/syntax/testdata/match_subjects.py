match a, b:
    case 1, 2:
        pass
match (a, b):
    case _: pass
match f(x):
    case _: pass
match *a, b:
    case _: pass
match = 1
match.x = 2
match[0] = 3
match(4)
case = 5
_ = match
