# Holds ever more live data until MemoryError: the 11th MiB never fits.
keep = []
try:
    while True:
        keep.append("y" * 65536)
except MemoryError:
    n = len(keep)
    keep = None
    print("MemoryError after", n, "blocks")
big = []
while True:
    big.append([0] * 4096)
