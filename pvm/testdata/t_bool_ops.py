def t(x):
    print("eval", x)
    return x
print(t(0) and t(1))
print(t(1) and t(2))
print(t(0) or t(3))
print(t(4) or t(5))
print(not t([]), t(None) is None)
r = t(1) and t(0) or t("fallback")
print(r)
