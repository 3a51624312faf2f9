# leading comment

x = 1  # trailing


# between
def f():
    # inside
    return 1

    # after blank

class A:

    x = 1
    # end
