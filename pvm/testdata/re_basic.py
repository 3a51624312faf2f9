import re

m = re.search(r"(\d+)-(\d+)", "tel: 555-1234 ok")
print(m.group(), m.group(0), m.group(1), m.group(2), m.group(1, 2), m.groups(), m.span(), m.start(1), m.end(2), m.span(2))
print(m.string, m.re.pattern, m.pos, m.endpos, m.lastindex, m.lastgroup)
print(m)
print(re.match(r"\d+", "abc123"), re.match(r"[a-z]+", "abc123"), re.fullmatch(r"a|ab", "ab"), re.fullmatch(r"a", "ab"))
m = re.match(r"(?P<key>\w+)=(?P<value>\w*)(;)?", "name=cowboy")
print(m.groupdict(), m.group("key"), m.group("value"), m.groups(), m.groups("-"), m.lastindex, m.lastgroup, m.span("value"))
print(m.groupdict("?"), m.start(3), m.end(3), m.span(3))
print(re.findall(r"\d+", "a1b22c333"), re.findall(r"(\w)(\d)", "a1b2c"), re.findall(r"(\w)\d", "a1b2"), re.findall("x*", "abxd"))
print(re.findall(r"(a)|(b)", "ab"), re.findall("", "abc"), re.findall(r"\b\w", "hello big world"))
print([m.span() for m in re.finditer(r"\w+", "one two  three")], [m.group() for m in re.finditer("x*", "axxb")])
print(re.sub(r"\d", "#", "a1b22c"), re.sub(r"(\w+)@(\w+)", r"\2 at \1", "me@home you@work"), re.sub("x*", "-", "abxd"))
print(re.sub(r"(?P<w>\w+)", r"<\g<w>|\g<1>|\g<0>>", "hi yo"), re.sub(r"a", r"\n\t\\", "bab"), re.sub("a", lambda m: m.group().upper() * 2, "banana"))
print(re.subn(r"\s+", " ", "a  b \t c\n"), re.sub(r"a", "b", "aaaa", count=2), re.sub(r"(a)|b", r"[\1]", "ab"))
print(re.split(r"\s*,\s*", "a , b,c ,d"), re.split(r"(,)", "a,b,c"), re.split(r",", "a,b,c", maxsplit=1), re.split("x*", "axbc"))
print(re.split(r"(a)|(b)", "1a2b3"), re.split(r"\d", ""), re.split(r"\W+", "Words, words, words."))
print(re.escape("a.b*c?d(e)[f]{g}|h^i$j\\k l-m#n&o~p"), re.escape("hello_world123"))
p = re.compile(r"(\w+)\s(\w+)", re.I)
print(p, p.pattern, p.flags, p.groups, p.groupindex, re.compile("x"), re.compile("x", re.M | re.S | re.X))
print(re.compile(r"(?P<a>x)(?P<b>y)").groupindex, re.compile("(?i)abc").flags, re.compile("a", re.A).flags)
print(p.search("Hello World").groups(), p.match("  x y"), p.match("x y z", 0), p.search("ab cd ef", 3).span())
print(re.compile(r"\d+").findall("12 34 56", 3), re.compile(r"\d+").findall("12 34 56", 1, 5), re.compile("^a").search("ba", 1))
print(re.compile(r"$").search("ab", 0, 1).span(), re.compile(r"\bb").search("ab", 1), re.compile(r"b").match("ab", 1).span())
print(re.search("hello", "HeLLo there", re.IGNORECASE).group(), re.findall(r"^\w+", "one\ntwo\nthree", re.M), re.findall(r"a.b", "a\nb", re.S))
print(re.findall(r"""
    (\d+)   # number
    \s*     # space
    ([a-z]+)  # unit
""", "10 kg, 5m", re.VERBOSE), re.findall(r"[\w ]+", "ab cd!ef"), re.findall(r"[\d\s]+", "12 3a4"))
print(re.findall(r"\w+", "héllo wörld ñ"), re.findall(r"\w+", "héllo wörld", re.A), re.findall(r"\d", "1٢3"), re.findall(r"\s", "a\u00a0b\tc"))
m = re.search(r"ö(\w)", "daß föo")
print(m.span(), m.span(1), m.start(), m.group(1), re.sub(r"ß", "ss", "daß ß"), re.split("ö", "aöböc"))
print([m.span() for m in re.finditer(r"é", "éaéb")], re.search("b", "ñb", 1).span())
print(re.findall(r"a{2}", "aaaaa"), re.findall(r"a{2,}", "aaaaa"), re.findall(r"a{,2}", "aaa"), re.findall(r"a{1,2}?", "aaa"), re.findall(r"x{", "x{"))
print(re.findall(r"\x41\u0042\101\0", "AB" + "A\x00"), re.findall(r"[\x41-\x43]", "ABCD"), re.findall(r"[]a]", "a]b"), re.findall(r"[^]a]", "a]b"))
print(re.findall(r"\Aab", "abab"), re.findall(r"ab\Z", "abab"), re.findall(r"(?:ab)+", "ababx"), re.findall(r"(?i:A)b", "ab AB Ab"))
print(re.findall(r"[\[\]\-\\]", "a[b]-\\"), re.findall(r"a\-b\ c\#", "a-b c#"), re.findall(r"(?#comment)x", "xx"))
print(re.match(b"(a+)(b*)", b"aaabbc").groups(), re.sub(b"a", b"x", b"banana"), re.findall(rb"\d+", b"a12b3"), re.split(b",", b"a,b"))
print(re.match("(a)(b)?", "a").groups(), re.match("(a)(b)?", "a").lastindex, re.match("((a)(b))", "ab").lastindex, re.match("(a)(b)", "ab").lastindex)
m = re.match(r"(\w+) (\w+)", "Isaac Newton, physicist")
print(m.expand(r"\2, \1"), m.expand(r"\g<2>!"), m[0], m[1], m[2])
print(re.match(r"(?P<w>\w+)", "hey")["w"])
print(int(re.I), re.IGNORECASE + 0, int(re.M | re.S), int(re.X & 64), int(re.A), int(re.U), re.NOFLAG == 0)
for pat in [r"(", r"a)", r"[a", r"*a", r"a**", r"\q", r"a{3,1}", r"(?P<1>a)", r"(?P<a>x)(?P<a>y)", r"a(?i)", r"\x4", r"(?<n>x)", "\\"]:
    try:
        re.compile(pat)
        print("compiled", pat)
    except re.error as e:
        print(repr(pat), "->", e.msg if "PVM" in e.msg or "not supported" in e.msg else e)
for args in [(r"(a)", r"\2", "a"), (r"(a)", r"\g<x>", "a"), (r"a", r"\q", "a"), (r"(a)", r"\g<1", "a")]:
    try:
        re.sub(*args)
    except (re.error, IndexError) as e:
        print(args, "->", type(e).__name__, e)
for bad in [lambda: re.search("a", b"a"), lambda: re.search(b"a", "a"), lambda: re.search("a", 5), lambda: re.compile(5), lambda: re.match("(a)", "a").group(2), lambda: re.match("(a)", "a").group("x")]:
    try:
        bad()
    except (TypeError, IndexError) as e:
        print(type(e).__name__, e)
print(issubclass(re.error, Exception), type(re.compile("a")).__name__, type(re.match("a", "a")).__name__)
