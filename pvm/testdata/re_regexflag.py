# re's flags are re.RegexFlag members (an IntFlag made global in 3.11):
# their repr, str and format, the bitwise operators that keep the type,
# the arithmetic that does not, and their names.
import re

print(re.I, re.IGNORECASE, repr(re.M), re.I | re.M, type(re.I).__name__)
print(re.I == 2, int(re.I), re.I + 0, isinstance(re.I, int), isinstance(re.I, re.RegexFlag))
print(re.NOFLAG, re.A, re.S | re.X, re.U, ~re.I, re.I & re.M, re.I ^ re.I)
print(str(re.I), format(re.I), f"{re.M}", f"{re.M!r}", re.I | 1024)
for spec in ["d", ">16", "x", "5"]:
    print(repr(format(re.I, spec)))
print("%d" % re.I, "%s" % re.I, "%r" % re.I, "%x" % (re.I | re.M))
print(re.RegexFlag(0), re.RegexFlag(2 | 8), re.RegexFlag(1024), repr(re.RegexFlag(3)))
print((re.I | re.M) is (re.I | re.M), re.I is re.IGNORECASE, re.RegexFlag(re.I) is re.I)
print(re.I in (re.I | re.M), (re.I | re.M) in re.I, re.NOFLAG in re.I)
try:
    print(3 in re.I)
except TypeError as e:
    print("TypeError", e)
print(list(re.I | re.M), len(re.I | re.M), bool(re.NOFLAG), bool(re.I))
print((re.I | re.M).name, re.NOFLAG.name, re.RegexFlag(1024).name, (re.I | 1024).name, re.I.value)
print(list(re.NOFLAG), list(re.I | 1024), len(re.NOFLAG), len(re.I | 1024))
for v in [~re.I, ~re.NOFLAG, ~(re.I | 1024), re.RegexFlag(-1), re.RegexFlag(-3), ~re.RegexFlag(1024),
          re.RegexFlag(512), re.I | 512, re.I ^ re.I | 1]:
    print(repr(v), int(v), v.name)
print(re.I & 3, type(re.I & 3).__name__, 3 & re.I, re.I ^ 3, re.I & True, re.I | True)
print(type(1 | re.I).__name__, 1 | re.I, type(True | re.I).__name__, True | re.I)
print(re.I + 1, type(re.I + 1).__name__, re.I * 2, -re.I, re.I << 1, type(re.I << 1).__name__)
print(re.I < 3, re.I + re.M, abs(re.I), hash(re.I | re.M) == hash(10), {re.I: 1}[2], sorted([re.M, re.I]))
try:
    re.I | "x"
except TypeError as e:
    print("TypeError", e)
try:
    re.RegexFlag("x")
except ValueError as e:
    print("ValueError", e)
print(re.RegexFlag.IGNORECASE, re.RegexFlag.__name__, re.RegexFlag.__module__)

# The flags work as before wherever re takes them; Pattern.flags is an int.
p = re.compile("a.c", re.I | re.S)
print(p, p.flags, type(p.flags).__name__, p.match("A\nC").group(0))
print(re.compile("x", re.I | re.M).flags, re.compile("(?i)x").flags)
print(re.findall("^b", "a\nb", flags=re.M), re.sub("A", "-", "aA", flags=re.IGNORECASE))
print(re.compile("x", 2), re.compile("x", re.RegexFlag(10)), re.compile("x", re.NOFLAG))
