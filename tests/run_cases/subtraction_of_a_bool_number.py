# Found by fuzz/programs.py: PyTorch refuses a Python bool in a subtraction (x - True, True - x, x.sub(False)) as it
# refuses a bool tensor there: the number is wrapped as a bool tensor; two bools have their own words.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
i = torch.tensor([1, 2])
m = torch.tensor([True, False])
for f in [lambda: x - True, lambda: True - x, lambda: torch.sub(x, False), lambda: x.sub(True), lambda: i - True,
          lambda: torch.rsub(x, True), lambda: m - True, lambda: True - m, lambda: x - m, lambda: x + True,
          lambda: x * False, lambda: i - 1, lambda: x - 1]:
    try:
        print(f())
    except RuntimeError as e:
        print("RuntimeError:", e)
y = x * 2
z = y - False
