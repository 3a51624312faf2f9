match x:
    case []:
        pass
    case [a]:
        pass
    case [a, b]:
        pass
    case (a, b):
        pass
    case ():
        pass
    case (a,):
        pass
    case [a, *rest]:
        pass
    case [*_, last]:
        pass
    case a, b:
        pass
    case a, *b:
        pass
    case a,:
        pass
    case [[1, 2], [3, *_]]:
        pass
