# Validating message arguments with re before touching state.
import re

ADDRESS = re.compile(r"^0x[0-9a-f]{8}$")
SYMBOL = re.compile(r"[A-Z]{2,5}")
AMOUNT = re.compile(r"^(\d+)(?:\.(\d{1,6}))?$")
MEMO = re.compile(r"^[\w .,:-]{0,40}$")


def parse_amount(text, decimals=6):
    m = AMOUNT.match(text)
    if not m:
        raise ValueError(f"bad amount {text!r}")
    whole, frac = m.group(1), m.group(2) or ""
    return int(whole) * 10 ** decimals + int(frac.ljust(decimals, "0"))


def validate(msg):
    errors = []
    if not ADDRESS.match(msg.get("to", "")):
        errors.append("to")
    if not SYMBOL.fullmatch(msg.get("symbol", "")):
        errors.append("symbol")
    try:
        amount = parse_amount(msg.get("amount", ""))
    except ValueError as e:
        errors.append(str(e))
        amount = None
    if not MEMO.match(msg.get("memo", "")):
        errors.append("memo")
    return errors, amount


msgs = [
    {"to": "0x0123abcd", "symbol": "CWD", "amount": "12.5", "memo": "rent: march"},
    {"to": "0x0123ABCD", "symbol": "cwd", "amount": "1.1234567", "memo": "x"},
    {"to": "0xdeadbeef", "symbol": "TOOLONG", "amount": "007", "memo": "a" * 41},
    {"to": "0xdeadbeef", "symbol": "AB", "amount": "0.000001"},
    {},
]
for m in msgs:
    print(validate(m))

text = "pay 0x0000aaaa 15 CWD; pay 0x0000bbbb 3 ETH; refund 0x0000cccc 2 CWD"
for m in re.finditer(r"(pay|refund) (0x[0-9a-f]+) (\d+) ([A-Z]+)", text):
    print(m.group(1), m.group(2), int(m.group(3)), m.group(4), m.span())
print(re.findall(r"0x[0-9a-f]+", text))
print(re.sub(r"\d+", lambda m: str(int(m.group()) * 2), text))
print(re.split(r";\s*", text))
print(re.sub(r"(?P<verb>pay|refund)", r"<\g<verb>>", text, count=2))
m = re.search(r"(?P<to>0x\w+) (?P<n>\d+)", text)
print(m.groupdict(), m.start("n"), m.end("n"), m.group(0))
print(bool(re.match(r"\s*$", "   ")), re.fullmatch(r"a|ab", "ab").group())
print(re.escape("1.5+2"), re.IGNORECASE & re.I == re.I)
print(re.findall(r"(?i)cwd", text), re.compile(r"x*").sub("-", "abc"))
