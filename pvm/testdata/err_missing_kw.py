def configure(*, name, level=1):
    return name, level
print(configure(name="x"))
configure(level=2)
