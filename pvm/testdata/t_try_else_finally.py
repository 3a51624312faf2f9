def run(x):
    log = []
    try:
        log.append("try")
        if x == "raise":
            raise ValueError
        if x == "return":
            return log
    except ValueError:
        log.append("except")
    else:
        log.append("else")
    finally:
        log.append("finally")
    log.append("after")
    return log
for x in ["ok", "raise", "return"]:
    print(x, run(x))
