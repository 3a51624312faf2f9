class CM:
    def __enter__(self):
        print("enter")
    def __exit__(self, *a):
        print("exit", a[0].__name__)
with CM():
    raise KeyError("inside with")
