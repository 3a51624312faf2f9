def gcd(a, b):
    while b:
        a, b = b, a % b
    return a
def is_prime(n):
    if n < 2:
        return False
    i = 2
    while i * i <= n:
        if n % i == 0:
            return False
        i += 1
    return True
print(gcd(48, 18), gcd(17, 5), [p for p in range(50) if is_prime(p)])
def isqrt(n):
    x = n
    y = (x + 1) // 2
    while y < x:
        x = y
        y = (x + n // x) // 2
    return x
print(isqrt(10 ** 40), isqrt(99), isqrt(2 ** 100))
def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps
print([collatz(i) for i in range(1, 15)])
print(sum(1 / (i * i) for i in range(1, 1000)))
