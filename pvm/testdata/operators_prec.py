print(2 + 3 * 4, (2 + 3) * 4, 2 ** 3 ** 2, -2 ** 2, (-2) ** 2, 10 - 3 - 2, 100 / 10 / 5)
print(1 + 2 == 3, not 1 == 2, 1 < 2 and 2 < 3, 1 if 0 else 2, 5 & 3 | 8, 1 << 2 + 1)
print(7 // 2 * 2 + 7 % 2, -7 // 2, ~0, ~-1, 3 ^ 5 & 1, not 0 or 1 and 2)
print(True or 1 / 0, False and 1 / 0, [] or {} or 0 or "", 0 == False, 1 == True)
print(2 * -3, - - 3, +-3, 3 - -3, 4 ** -1, 8 % 3 ** 2)
x = 5
print(0 < x <= 5, x in range(10), x not in [1, 2], (x, 1) == (5, 1))
print("a" "b" "c", "x" * 2 + "y", [1] * 2 + [3])
