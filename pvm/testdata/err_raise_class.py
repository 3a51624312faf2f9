class Oops(Exception):
    def __str__(self):
        return "custom str"
def a():
    b()
def b():
    raise Oops
a()
