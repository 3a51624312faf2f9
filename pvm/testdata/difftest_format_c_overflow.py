# Found by the differential fuzzer: format(n, 'c') of an int outside C
# long's range fails in the conversion to C long, before the 0x110000
# check (the % operator checks the range only).
for v in [2**63, 2**63 - 1, -2**63, -2**63 - 1, -1, 0x110000, -2**122 + 717198641156063878, 10**30]:
    try:
        print(format(v, "c"))
    except OverflowError as e:
        print(v, e)
    try:
        print(f"{v:c}")
    except OverflowError as e:
        print("f", e)
for v in [2**63, 2**64, -2**63 - 1]:
    try:
        print("%c" % v)
    except OverflowError as e:
        print("%", e)
print(format(65, "c"), f"{0x1F600:c}", "%c" % 97)
