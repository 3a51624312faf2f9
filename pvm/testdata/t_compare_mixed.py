print(1 == 1.0, 1 is not None, 0 == False, "" == False, [] == False, None == 0)
print(1 < 2.5 < 3, 2 ** 53 == 2.0 ** 53, 10 ** 20 > 1e19, -1 < -0.5)
print((1, 2) < (1, 2, 0), [1, 2] != [2, 1], {1, 2} == {2, 1}, {"a": 1} != {"a": 2})
try:
    print([1] < (1,))
except TypeError as e:
    print("TypeError:", e)
