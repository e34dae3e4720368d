# Where Python, NumPy and PyTorch disagree, under run each spelling is its own library's: round half to even, floor
# division and remainder of negatives, integer powers, division by zero, sums of bools, int(t) and float(t) of a
# tensor of several elements (Tensor.__int__'s ValueError, not .item()'s RuntimeError), math.floor of a tensor.
import math
import numpy as np
import torch


def show(label, f):
    try:
        out = f()
    except Exception as e:
        print(label, type(e).__name__, e)
        return
    print(label, type(out).__name__, repr(out))


t = torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5])
i = torch.tensor([7, -7, 3])
show("round t", lambda: round(t))
show("round t 1", lambda: round(torch.tensor([0.25, 0.35, -0.15]), 1))
show("torch.round", lambda: torch.round(t))
show("torch.round dec", lambda: torch.round(torch.tensor([0.25, 0.35, 1.125]), decimals=2))
show("np.round t", lambda: np.round(t.numpy()))
show("np.round dec", lambda: np.round(np.array([0.25, 0.35, 1.125]), 2))
show("python round", lambda: [round(v) for v in (0.5, 1.5, 2.5, -0.5)])
show("floordiv neg", lambda: i // torch.tensor([2, 2, -2]))
show("mod neg", lambda: i % torch.tensor([2, 2, -2]))
show("floordiv float neg", lambda: torch.tensor([7.5, -7.5]) // 2)
show("mod float neg", lambda: torch.tensor([7.5, -7.5]) % -2)
show("fmod", lambda: torch.fmod(i, torch.tensor([2, 2, -2])))
show("math.fmod", lambda: math.fmod(-7, 2))
show("python", lambda: (-7 // 2, -7 % 2, 7 % -2, -7.5 // 2, -7.5 % 2))
show("abs int min", lambda: torch.abs(torch.tensor([-2**63])))
show("neg int min", lambda: -torch.tensor([-2**63]))
show("int pow neg", lambda: torch.tensor([2, 3]) ** -1)
show("int pow neg tensor", lambda: torch.tensor([2, 3]) ** torch.tensor([-1, 2]))
show("int pow 0", lambda: torch.tensor([0, 2]) ** 0)
show("int scalar pow neg", lambda: 2 ** torch.tensor([-1, 2]))
show("int div zero", lambda: torch.tensor([1, 2]) // 0)
show("int div zero t", lambda: torch.tensor([1, 2]) // torch.tensor([0, 1]))
show("int mod zero", lambda: torch.tensor([1, 2]) % 0)
show("int true div zero", lambda: torch.tensor([1, 0]) / 0)
show("sum bool", lambda: torch.tensor([True, False, True]).sum())
show("py sum bool", lambda: sum(torch.tensor([True, False, True])))
show("mean int", lambda: torch.tensor([1, 2]).mean())
show("mean int dtype", lambda: torch.tensor([1, 2]).mean(dtype=torch.float64))
show("argmax ties", lambda: torch.argmax(torch.tensor([1.0, 3.0, 3.0, 2.0])))
show("argmin ties", lambda: torch.argmin(torch.tensor([1.0, 0.0, 0.0])))
show("max dim ties", lambda: torch.max(torch.tensor([[1.0, 3.0, 3.0]]), 1))
show("np argmax ties", lambda: np.argmax(np.array([1.0, 3.0, 3.0])))
show("math.floor t", lambda: math.floor(torch.tensor(2.5)))
show("math.floor t1", lambda: math.floor(torch.tensor([2.5])))
show("math.ceil t", lambda: math.ceil(torch.tensor(-2.5)))
show("math.floor tm", lambda: math.floor(torch.tensor([2.5, 1.0])))
show("math.sqrt t", lambda: math.sqrt(torch.tensor(4.0)))
show("math.exp tm", lambda: math.exp(torch.tensor([1.0, 2.0])))
show("int t", lambda: int(torch.tensor([2.7, 1.0])))
show("float t", lambda: float(torch.tensor([2.7, 1.0])))
show("int t1", lambda: int(torch.tensor([[-2.7]])))
show("float t1 int", lambda: float(torch.tensor([3])))
show("bool tm", lambda: bool(torch.tensor([1.0, 0.0])))
show("bool t0", lambda: bool(torch.tensor([])))
show("int t empty", lambda: int(torch.tensor([])))
show("abs py", lambda: abs(torch.tensor([-1, 2])))
show("pow py neg float", lambda: (-8) ** (1 / 3))
show("torch pow neg frac", lambda: torch.tensor(-8.0) ** (1 / 3))
show("bool arith", lambda: torch.tensor([True]) + torch.tensor([True]))
show("bool sub", lambda: torch.tensor([True]) - torch.tensor([True]))
show("min max py", lambda: (max(torch.tensor([1.0, 5.0])), min(torch.tensor(3.0), 2)))
