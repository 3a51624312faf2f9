(a)
((a))
(a).b
(a)(b)
(a)[b]
(a + b).c
(-a)
(yield)
x = (1)
(a) + (b)
(((a, b)))
