def inner(x):
    return 10 / x
def outer(x):
    print("calling inner")
    return inner(x)
print(outer(5))
outer(0)
