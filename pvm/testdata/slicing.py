s = list(range(10))
print(s[2:8:2], s[::-3], s[-3:], s[:-3], s[8:2:-2], s[100:], s[-100:2], s[::])
s[::2] = [0] * 5
print(s)
s[1:3] = []
print(s)
del s[-2:]
print(s)
t = "abcdefgh"
print(t[1:-1], t[::-1][::2], t[-1::-3], t[3:3], t[5:1])
print((1, 2, 3, 4)[1:3], range(20)[3:15:4], list(range(20)[3:15:4]))
b = bytearray(b"hello")
print(b[1:4], bytes(b[::-1]))
sl = slice(1, None, 2)
print(s[sl], t[sl], sl.start, sl.stop, sl.step)
