def rle(s):
    out = []
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        out.append(f"{j - i}{s[i]}")
        i = j
    return "".join(out)
def unrle(s):
    out, num = [], ""
    for ch in s:
        if ch.isdigit():
            num += ch
        else:
            out.append(ch * int(num))
            num = ""
    return "".join(out)
s = "aaabccddddde"
print(rle(s), unrle(rle(s)) == s)
def caesar(s, k):
    return "".join(chr((ord(c) - 97 + k) % 26 + 97) if c.islower() else c for c in s)
print(caesar("hello, world", 3), caesar(caesar("abc xyz", 5), -5))
data = "héllo".encode("utf-8")
print(data, list(data), data.hex(), bytes.fromhex(data.hex()).decode())
print(bytes(b ^ 0x20 for b in b"Hello"), bytearray(b"abc")[::-1])
