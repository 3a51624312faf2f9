match x:
    case {}:
        pass
    case {'k': v}:
        pass
    case {'a': 1, 'b': [c, d]}:
        pass
    case {'k': v, **rest}:
        pass
    case {**rest}:
        pass
    case {1: a, -2: b, None: c}:
        pass
    case {K.a: v}:
        pass
