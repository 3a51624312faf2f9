# Scoped inline flags (?flags-flags:...): i, m, s, x, a and u, nested and
# under global flags, and the errors of sre_parse._parse_flags with their
# positions.
import re

tests = [
    (r"(?i:ab)c", "ABc"), (r"(?i:ab)c", "ABC"), (r"(?i)a(?-i:b)c", "AbC"), (r"(?i)a(?-i:b)c", "ABC"),
    (r"(?a:\w+)", "héllo"), (r"(?a:\d)", "٣"), (r"\w+(?a:\w+)", "éé"), (r"(?x: a b )c", "abc"),
    (r"(?s:.)", "\n"), (r"(?m:^b)", "a\nb"), (r"(?ims-x:a.)", "A\n"), (r"(?u:\w)", "é"), (r"(?-a:x)", "x"),
    (r"(?a-i:x)", "x"), (r"(?i-i:x)", "x"),(r"(?-:x)", "x"),
]
for p, s in tests:
    try:
        m = re.search(p, s)
        print(p, repr(s), m.group(0) if m else None)
    except re.error as e:
        print(p, "error", e)
pats = [r"(?L:x)", r"(?au:x)", r"(?a", r"(?i", r"(?i-", r"(?i-m", r"(?i-q:x)", r"(?i-1:x)", r"(?iq:x)", r"(?i1:x)", r"(?-", r"(?-q:x)",
        r"(?-1:x)", r"(?-u:x)", r"(?m-m:x)", r"(?is-is:x)", r"x(?i)", r"(?x: a b (?-x: c) d)", r"(?x:(?-x: ) )", r"(?a:[\w]+)", r"(?a:\s+)",
        r"(?i:a(?-i:b)c)", r"(?s:a.(?-s:.))", r"((?a:\w)\w)", r"(?a:(\w))(\w)", r"(?u:\w)\w", r"(?i)(?-i:A)a"]
subjects = ["x", "a b c d", " ", "éé", " \u2003", "AbC", "abc", "a\n\n", "a\nb", "ééé", "Aa", "aA", "AA"]
for p in pats:
    try:
        r = re.compile(p)
    except re.error as e:
        print(p, "error", e)
        continue
    print(p, [(s, m.group(0), m.groups()) for s in subjects for m in [r.search(s)] if m])
for p in [rb"(?u:x)", rb"(?a:x)", rb"(?L:x)"]:
    try:
        print(p, re.compile(p).search(b"x"))
    except re.error as e:
        print(p, "error", e)
print(re.compile(r"(?u:\w)", re.A).findall("éa"), re.compile(r"(?a:\w)\w", re.U).findall("ééaé"))
