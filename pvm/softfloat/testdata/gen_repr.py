"""Writes repr_cpython.txt: CPython's repr and format output for a random
sample of binary64 values (run: python3 gen_repr.py > repr_cpython.txt).
Lines: "r <hex bits> <repr>" and "f <hex bits> <spec> <format(x, spec)>"."""
import random
import struct

rnd = random.Random(31337)

def from_bits(b):
    return struct.unpack('<d', struct.pack('<Q', b))[0]

def rand_bits():
    k = rnd.randrange(6)
    if k == 0:
        return rnd.getrandbits(64)
    if k == 1:  # subnormal or tiny
        return rnd.getrandbits(52) | (rnd.randrange(3) << 52) | (rnd.getrandbits(1) << 63)
    if k == 2:  # "human" magnitudes
        return (rnd.randrange(0x3c0, 0x440) << 52) | rnd.getrandbits(52) | (rnd.getrandbits(1) << 63)
    if k == 3:  # short decimals
        x = round(rnd.uniform(-1e6, 1e6), rnd.randrange(0, 8))
        return struct.unpack('<Q', struct.pack('<d', x))[0]
    if k == 4:  # integers and halves
        x = rnd.randrange(-10**17, 10**17) / rnd.choice([1, 2, 4, 8, 1000])
        return struct.unpack('<Q', struct.pack('<d', x))[0]
    return (rnd.randrange(0x7fe) << 52) | rnd.getrandbits(52)

specs = ['e', 'E', 'f', 'F', 'g', 'G', '%', '', 'n', ',', '_', '+', ' ', '#', 'z']
for _ in range(20000):
    b = rand_bits()
    print('r %016x %s' % (b, repr(from_bits(b))))
for _ in range(12000):
    b = rand_bits()
    x = from_bits(b)
    t = rnd.choice(specs)
    spec = ''
    if rnd.random() < 0.3:
        spec += rnd.choice(['<', '>', '^', '=', '*<', '0=', '_^']) + str(rnd.randrange(1, 30))
    if t in '+ #z,_':
        spec = t + spec if not spec else spec[:0] + t + spec
        t = rnd.choice(['e', 'f', 'g', '', '%'])
    if rnd.random() < 0.6 and t != 'n':
        spec += '.' + str(rnd.randrange(0, 25))
    if t == 'f' and abs(x) > 1e25:
        t = 'e'
    if t == '%' and abs(x) > 1e25:
        t = 'g'
    spec += t
    try:
        out = format(x, spec)
    except ValueError as e:
        out = 'ValueError'
    print('f %016x %s|%s' % (b, spec, out))
