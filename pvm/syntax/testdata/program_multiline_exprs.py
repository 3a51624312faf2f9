x = [
    1,
    2,
]
y = {
    'a': (1,
          2),
    'b': f(
        3,
    ),
}
if (a and
        b):
    z = call(
        arg)
