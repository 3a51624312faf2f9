def read_lines(text):
    for line in text.splitlines():
        yield line
def parse(lines):
    for line in lines:
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition("=")
        yield key.strip(), value.strip()
def typed(pairs):
    for k, v in pairs:
        if v.isdigit():
            yield k, int(v)
        elif v in ("true", "false"):
            yield k, v == "true"
        else:
            yield k, v
cfg = """
# comment
name = cowboy
port = 8645
debug = true
"""
print(dict(typed(parse(read_lines(cfg)))))
def window(xs, n):
    it = iter(xs)
    buf = []
    for x in it:
        buf.append(x)
        if len(buf) == n:
            yield tuple(buf)
            buf.pop(0)
print(list(window(range(6), 3)))
