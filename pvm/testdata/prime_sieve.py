def sieve(n):
    is_p = [True] * (n + 1)
    is_p[0] = is_p[1] = False
    for i in range(2, int(n ** 0.5) + 1):
        if is_p[i]:
            for j in range(i * i, n + 1, i):
                is_p[j] = False
    return [i for i, p in enumerate(is_p) if p]
ps = sieve(200)
print(len(ps), ps[:10], ps[-3:], sum(ps))
twins = [(a, b) for a, b in zip(ps, ps[1:]) if b - a == 2]
print(twins[:5], len(twins))
def factor(n):
    fs = []
    d = 2
    while d * d <= n:
        while n % d == 0:
            fs.append(d)
            n //= d
        d += 1
    if n > 1:
        fs.append(n)
    return fs
print(factor(360), factor(97), factor(2 ** 10 * 3 ** 5), factor(1234567))
