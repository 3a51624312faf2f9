def parse(s):
    try:
        return int(s)
    except ValueError as e:
        raise RuntimeError("bad input") from e
parse("x")
