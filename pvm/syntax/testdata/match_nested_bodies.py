def f(cmd):
    match cmd.split():
        case ['go', direction]:
            return direction
        case ['look']:
            for x in y:
                print(x)
        case _:
            match z:
                case 1:
                    pass
