# Hostile: keeps about 9.9 MiB live in many small objects, then allocates
# temporaries forever. Each time the allocation counter reaches the limit
# the heap is walked and the walk is paid for, so this ends out of cycles.
keep = []
i = 0
while i < 160000:
    keep.append((i, i + 1))
    i += 1
while True:
    s = "t" * 20000
