# struct range errors for 8-byte q/Q in every byte order (found by difftest).
import struct
for f in ['>q', '!q', '<q', '=q', 'q', '>Q', '!Q', '<Q', 'Q', '>i', '>I', '>h', '>B']:
    row = []
    for v in [-1, 0, 2**64 - 1, 2**64, 2**63, 2**63 - 1, -2**63, -2**63 - 1, 2**40, 2**100]:
        try:
            row.append(struct.pack(f, v).hex())
        except struct.error as e:
            row.append(str(e))
    print(f, row)
