# An exception raised while handling another: "During handling ..." chain.
def parse_amount(s):
    try:
        return int(s)
    except ValueError:
        return {"fallback": 0}[s]


print(parse_amount("12"))
print(parse_amount("twelve"))
