# int.as_integer_ratio (found by difftest).
for x in (0, -45, 7, True, False, 2**70, -2**100):
    r = x.as_integer_ratio()
    print(r, type(r[0]).__name__)
class I(int):
    pass
print(I(5).as_integer_ratio(), type(I(5).as_integer_ratio()[0]).__name__)
try:
    (3).as_integer_ratio(1)
except TypeError as e:
    print('TypeError')
