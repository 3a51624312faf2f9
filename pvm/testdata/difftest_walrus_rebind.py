# Found by pvm/difftest: CPython refuses an assignment expression that
# rebinds a comprehension iteration variable, at compile time.
print("never printed")
print([x + y for x in range(3) for y in range(2) if (y := x * 2) > 3])
