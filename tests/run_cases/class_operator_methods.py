# a class of the file with operator methods and __repr__ (micrograd's Value), sets
import torch


class V:
    def __init__(self, data):
        self.data = data

    def __add__(self, other):
        other = other if isinstance(other, V) else V(other)
        return V(self.data + other.data)

    def __radd__(self, other):
        return self + other

    def __mul__(self, other):
        other = other if isinstance(other, V) else V(other)
        return V(self.data * other.data)

    def __rmul__(self, other):
        return self * other

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __truediv__(self, other):
        return self * other ** -1

    def __rtruediv__(self, other):
        return other * self ** -1

    def __pow__(self, other):
        return V(self.data ** other)

    def __repr__(self):
        return f"V(data={self.data})"


class Shown(V):
    def __str__(self):
        return "shown " + repr(self.data)


a, b = V(3.0), V(-2.0)
c = 2 * a + b * a - 1
c += c + 1
print(c, [a, b], (a / b, 1 / a))
print(-a, a ** 2, f"{a!r} and {b}", str(b), repr(Shown(4)), Shown(4))
print(V(torch.tensor([1.0, 2.0])) * 2)
seen = set()
for v in (a, b, a, c):
    seen.add(v)
print(len(seen), a in seen, V(1) in seen, sorted(set([3, 1, 2, 3])), set())
print(set((1, 2)), {len(set("hello"))}, {x % 3 for x in range(10)})
n = V(1) + a
print(n)
print(a - "x")
