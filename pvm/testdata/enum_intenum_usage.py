from enum import IntEnum, Enum, unique


@unique
class Opcode(IntEnum):
    TRANSFER = 1
    MINT = 2
    BURN = 3


handlers = ["noop", "transfer", "mint", "burn"]
for op in Opcode:
    print(op.name, int(op), handlers[op], op * 10, op == op.value)
print(list(range(Opcode.BURN)), [0] * Opcode.MINT, "abcdef"[Opcode.MINT:Opcode.BURN + 1])
print(Opcode(2), Opcode["BURN"] - 1, sum(Opcode), max(Opcode).name, sorted(Opcode, reverse=True)[0])
print(hex(Opcode.BURN), chr(64 + Opcode.TRANSFER), "%d/%s" % (Opcode.MINT, Opcode.MINT), format(Opcode.MINT, "02d"))
encoded = bytes([Opcode.MINT, Opcode.BURN])
print(encoded, [Opcode(b) for b in encoded])
table = {Opcode.TRANSFER: "t", 2: "m"}
print(table[1], table[Opcode.MINT], Opcode.TRANSFER in table)


class Weekday(Enum):
    MON = 1
    TUE = 2

    @property
    def is_start(self):
        return self is Weekday.MON

    @classmethod
    def first(cls):
        return list(cls)[0]


print(Weekday.first(), Weekday.TUE.is_start, [d.is_start for d in Weekday], Weekday.MON._value_)
print(Weekday.__members__.keys(), len(Weekday.__members__), [d.name for d in reversed(list(Weekday))])
