# re: groups, flags, sub with functions, split, findall shapes.
import re

log = """2024-01-05 ERROR tx=0xab12 gas=21000 msg="out of gas"
2024-01-05 INFO tx=0xcd34 gas=50000 msg="ok"
2024-01-06 WARN tx=0xef56 gas=99999 msg="near limit"
2024-01-07 error tx=0x0001 gas=1 msg="lower-case level\""""
pat = re.compile(r'^(?P<date>\d{4}-\d{2}-\d{2}) (?P<level>[A-Z]+) tx=(?P<tx>0x[0-9a-f]+) gas=(?P<gas>\d+)', re.M)
for m in pat.finditer(log):
    print(m.group("date"), m.group("level"), m["tx"], int(m.group("gas")), m.groups()[1:])
print(len(pat.findall(log)), len(re.findall(pat.pattern, log, re.M | re.I)))
print(re.findall(r"gas=(\d+)", log), re.findall(r"(\w+)=(\w+)", "a=1 b=2"), re.findall(r"\d", "no digits"))
print(re.sub(r"0x([0-9a-f]+)", lambda m: "0x" + m.group(1).upper(), log.splitlines()[0]))
print(re.subn(r"\s+", " ", "a   b \t c\n d"), re.sub(r"(\w+)@(\w+)", r"\2 at \1", "user@host x@y"))
print(re.split(r"[,;]\s*", "a, b;c ,d"), re.split(r"(\d)", "a1b2c"), re.split(r"x", "axbxc", maxsplit=1))
m = re.match(r"(\d+)-(\d+)?", "12-")
print(m.group(0), m.group(1), m.group(2), m.groups(), m.groups("none"), m.span(1), m.lastindex)
print(re.search(r"b+", "aabbbcc").span(), re.match(r"b", "abc"), re.fullmatch(r"\w+", "abc_1"), re.fullmatch(r"\w+", "a-b"))
print(bool(re.search(r"^\s*#", "   # comment")), re.search(r"colou?r", "my color").group())
print(re.findall(r"[A-Z][a-z]+", "HelloWorldFooBar"), re.findall(r"\b\w{3}\b", "the cat sat on a mat"))
print(re.sub(r"(?i)hello", "bye", "Hello HELLO hello"), re.findall(r"a.c", "abc a\nc", re.S))
print(re.escape("a.b*c"), re.compile(r"\d+").pattern, re.compile("x", re.I).flags & re.I != 0)
print(re.findall(r"(?:ab)+", "ababab abab"), re.findall(r"\$(\d+(?:\.\d\d)?)", "$5 and $12.50 and $x"))
print([m.group() for m in re.finditer(r"\d+", "1 22 333")], re.sub(r"\d", "#", "a1b22", count=2))
try:
    re.compile(r"(a")
except re.error as e:
    print("re.error", type(e).__name__)
email = re.compile(r"^[\w.+-]+@[\w-]+\.[\w.]+$")
print([bool(email.match(a)) for a in ["a@b.co", "bad@", "x.y+z@host.org", "@no.pe"]])
