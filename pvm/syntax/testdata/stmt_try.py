try:
    a
except:
    b
try:
    a
except E:
    b
try:
    a
except E as e:
    b
except (F, G) as g:
    c
else:
    d
finally:
    e
try:
    a
finally:
    b
