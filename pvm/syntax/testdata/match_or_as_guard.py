match x:
    case 1 | 2 | 3:
        pass
    case [a, b] as pair:
        pass
    case (1 | 2) as n:
        pass
    case str() | bytes() as s if s:
        pass
    case n if n > 0:
        pass
    case Color.RED:
        pass
    case _ if cond:
        pass
    case [x] if (y := x):
        pass
