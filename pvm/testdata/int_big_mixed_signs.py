# Issue 18/20: floor division, modulo and divmod of big ints with mixed
# signs; to_bytes range checks; int() refusing a second sign; long binary
# literals within the 4096-bit cap.
for a in [10**30, -10**30, 3, -3, 2**70, -(2**70), 2**64 - 1]:
    for b in [-7, 7, -3, -243634717971734798913771699415, 243634717971734798913771699415, -(2**65)]:
        print(a, b, a // b, a % b, divmod(a, b))
print(pow(-3, 5, -7), pow(3, -1, 7), pow(-(2**70), -1, 10**9 + 7), pow(5, -2, -11), pow(7, -1, 1))
for v, n in [(-128, 1), (-129, 2), (127, 1), (255, 2), (-(2**63), 8), (0, 0)]:
    print(v.to_bytes(n, 'little', signed=True), int.from_bytes(v.to_bytes(n, 'big', signed=True), 'big', signed=True))
for v, n in [(-129, 1), (128, 1), (-1, 0), (1, 0)]:
    try:
        v.to_bytes(n, 'big', signed=True)
    except OverflowError as e:
        print('OverflowError', e)
for s in ['--5', '+-5', '-+5', '- 5']:
    try:
        int(s)
    except ValueError as e:
        print('ValueError', e)
print(int('1' * 2000, 2) == 2**2000 - 1, int('0' * 3000 + '1_0', 2))
