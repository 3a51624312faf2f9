# del f.attr removes a function attribute (also one stored through __dict__);
# deleting a missing one is AttributeError.
def f():
    pass
f.x = 1
del f.x
print(hasattr(f, "x"), f.__dict__)
try:
    del f.x
except AttributeError as e:
    print("AttributeError", e)
f.__dict__["y"] = 2
del f.y
print(f.__dict__)
