data = [1, 5, 2, 8, 3]
if (n := len(data)) > 3:
    print(f"long list of {n}")
print([y for x in data if (y := x * 2) > 5])
total = 0
print([total := total + x for x in data], total)
import_like = None
while (chunk := data[:2]):
    print(chunk)
    data = data[2:]
def f():
    if (r := 10) > 5:
        return r
print(f())
