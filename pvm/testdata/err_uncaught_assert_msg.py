# An assertion with a message stops the program.
def check_invariant(total, parts):
    assert total == sum(parts), f"total {total} != sum {sum(parts)}"
    return True


print(check_invariant(6, [1, 2, 3]))
print(check_invariant(7, [1, 2, 3]))
