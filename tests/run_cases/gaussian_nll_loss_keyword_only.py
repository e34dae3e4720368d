# nn.GaussianNLLLoss takes its settings by keyword alone (full, eps, reduction): by position, Python's TypeError
import torch
import torch.nn as nn
def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = torch.tensor([1.0, 0.0, 1.5])
v = torch.tensor([1.0, 2.0, 0.5])
print(nn.GaussianNLLLoss(full=True, eps=1e-6, reduction="sum")(x, y, v))
attempt(lambda: nn.GaussianNLLLoss(True))
attempt(lambda: nn.GaussianNLLLoss(True, 1e-6, "mean"))
attempt(lambda: nn.MSELoss(None, None, "sum")(x, y))
attempt(lambda: nn.MSELoss(None, None, "sum", 1))
