match x:
    case y:
        pass
match x:
    case _:
        pass
match x:
    case (y):
        pass
