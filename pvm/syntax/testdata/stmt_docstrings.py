'''Module doc.'''
def f():
    '''Function doc.'''
    return 1
class A:
    """Class doc."""
