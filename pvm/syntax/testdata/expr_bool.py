a and b
a or b or c
not a
a and not b or c
not not x
(a or b) and c
