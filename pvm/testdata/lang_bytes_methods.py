# bytes and bytearray methods, compared with CPython.
b = b"  Hello, Cowboy World!  "
print(b.strip(), b.lstrip(), b.rstrip(), b.strip(b" !Hd"))
print(b.split(), b.split(b","), b.split(b"o", 2), b.rsplit(b"o", 1), b.rsplit(None, 1))
print(b"a,b,,c".split(b","), b"".split(), b"  a  b ".split(None, 1), b"x y z".rsplit(maxsplit=1))
print(b"-".join([b"a", bytearray(b"b"), b"c"]), b"".join([]), bytearray(b", ").join([b"x", b"y"]))
print(b.find(b"o"), b.rfind(b"o"), b.find(b"zz"), b.find(111), b.count(b"o"), b.count(b""), b.index(b"W"))
print(b.find(b"o", 10), b.find(b"o", 5, 8), b.rindex(b"l"), b.count(b"l", 0, 10))
print(b.startswith(b"  H"), b.endswith((b"x", b"  ")), b.startswith(b"Hello", 2), b.endswith(b"!", 0, -2))
print(b.replace(b"o", b"0"), b.replace(b"o", b"", 2), b.upper(), b.lower(), b.swapcase())
print(b"hello world".title(), b"hELLO".capitalize(), b"abc".center(9, b"*"), b"7".zfill(4), b"-7".zfill(4))
print(b"ab".ljust(5), b"ab".rjust(5, b"."), b"12".isdigit(), b"ab1".isalnum(), b"ab".isalpha(), b" \t".isspace())
print(b"ABC".isupper(), b"abc".islower(), b"aBc".islower(), b"".isdigit(), b"\xff".isascii(), b"a".isascii())
print(b"key=value=x".partition(b"="), b"key=value=x".rpartition(b"="), b"abc".partition(b"z"))
print(b"prefix-body".removeprefix(b"prefix-"), b"body.txt".removesuffix(b".txt"), b"abc".removeprefix(b"z"))
ba = bytearray(b"hello")
print(ba.upper(), type(ba.upper()).__name__, ba.split(b"l"), ba.strip(b"ho"), ba.find(b"l"))
ba.insert(0, 72)
ba.append(33)
print(ba, ba.pop(), ba.pop(0), ba)
ba.remove(108)
ba.reverse()
print(ba, ba.copy(), len(ba))
ba.extend(b"xyz")
print(ba, ba[1:3], ba[-1])
ba.clear()
print(ba, bytearray(b"a b").replace(b" ", b"_"))
print(b"%s=%d (%x) %5.1f %r %%" % (b"k", 42, 255, 3.14159, b"q"))
print(b"%-6s|%c%c" % (b"ab", 65, b"z"), b"%(a)s-%(b)s" % {b"a": b"1", b"b": b"2"})
for bad in [lambda: b"x".split(b""), lambda: b"abc".index(b"z"), lambda: b"a".join(["s"]),
            lambda: b"ab".find("a"), lambda: b"%s" % "str", lambda: b"%d %d" % (1,),
            lambda: bytearray().pop(), lambda: bytearray(b"a").remove(98), lambda: b"a".startswith("a"),
            lambda: b"%d" % (1, 2), lambda: b"a".center(3, b"xy"), lambda: b"a".find(256)]:
    try:
        print(bad())
    except (TypeError, ValueError, IndexError) as e:
        print(type(e).__name__, e)
