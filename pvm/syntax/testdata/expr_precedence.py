a + b * c
a * b + c
a ** -b
-a ** b
not a == b
a | b & c
a if b or c else d
lambda: a if b else c
a < b | c
x = -1
y = ~x ** 2
