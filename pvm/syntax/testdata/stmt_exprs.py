x
f(x)
'docstring'
x.y
...
1
(yield_ := 1)
