match x:
    case 1:
        pass
    case -1:
        pass
    case 'a':
        pass
    case b'b':
        pass
    case 1.5:
        pass
    case 'a' 'b':
        pass
    case None:
        pass
    case True:
        pass
    case False:
        pass
