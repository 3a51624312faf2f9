match = [1]
case = 2
_ = 3
print(match, case, _)
def match(case): return case
class case: pass
