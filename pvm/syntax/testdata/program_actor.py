class Counter:
    def __init__(self, start=0):
        self.count = start

    def incr(self, by: int = 1) -> int:
        self.count += by
        return self.count


def main():
    c = Counter()
    for _ in range(3):
        c.incr()
    print(f'count={c.count}')


if __name__ == '__main__':
    main()
