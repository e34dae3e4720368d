# @property (with @x.setter) and @classmethod in a class of the file, on an object and on an nn.Module subclass
import torch
class A:
    def __init__(self):
        self._x = 2
    @property
    def x(self):
        return self._x * 10
    @x.setter
    def x(self, v):
        self._x = v
    @classmethod
    def make(cls, v):
        a = cls()
        a.x = v
        return a
    @property
    def ro(self):
        return 1
a = A.make(5)
print(a.x, A.make, type(A.x).__name__ if False else 1)
b = a.make(3)
print(b.x)
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)
    @property
    def w(self):
        return self.lin.weight.shape
print(M().w)
try:
    a.ro = 3
except AttributeError as e:
    print(e)
print(A.ro, a.ro)
class B(A):
    @property
    def x(self):
        return super().x + 1
print(B().x)
