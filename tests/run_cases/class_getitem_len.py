# A class of the file with __getitem__ and __len__ (d2l's Accumulator): obj[i], obj[1:], len(obj), and
# Python's errors for a __len__ that returns a float or a negative number.
class Accumulator:
    """For accumulating sums over `n` variables."""
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def __getitem__(self, idx):
        return self.data[idx]

    def __len__(self):
        return len(self.data)


metric = Accumulator(3)
metric.add(1, 2.5, 3)
metric.add(4, 5, 6)
print(metric[0], metric[-1], metric[1:], len(metric))


class Bad:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n


for n in (2.5, -1):
    try:
        len(Bad(n))
    except (TypeError, ValueError) as e:
        print(repr(e))
try:
    metric[7]
except IndexError as e:
    print(e)
