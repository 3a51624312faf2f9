# Big ints are not charged when arithmetic makes them, so the allocation
# counter does not see these 11 MiB; the first heap walk does. After that
# MemoryError, catching it must not open the way to unlimited allocation.
big = [2 ** 4000 + i for i in range(20000)]
try:
    while True:
        s = "x" * 100000
except MemoryError:
    print("MemoryError on temporaries")
keep = None
try:
    keep = []
    while True:
        keep.append("y" * 100000)
except MemoryError:
    print("MemoryError on append", keep)
big = None
keep = []
for i in range(200):
    keep.append("z" * 10000)
print("after freeing", len(keep))
