# The grad-mode forms tutorials write: @torch.no_grad() and @torch.enable_grad() (with and without the parentheses)
# on functions and methods, torch.set_grad_enabled(mode) as a statement and as a with block (the mode set at the
# call, the one before restored after the block), torch.is_grad_enabled(), nested blocks, and PyTorch's error for a
# mode that is not a bool.
import torch
import torch.nn as nn
torch.manual_seed(0)
w = torch.ones(2, requires_grad=True)


@torch.no_grad()
def evaluate(x):
    return (w * x).sum()


@torch.no_grad
def evaluate_bare(x):
    return w * x


print(evaluate(torch.tensor([1.0, 2.0])), evaluate_bare(3.0).requires_grad, (w * 2).requires_grad)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)

    def forward(self, x):
        return self.fc(x)

    @torch.no_grad()
    def predict(self, x):
        return self(x)


m = Model()
print(m.predict(torch.ones(1, 2)), m(torch.ones(1, 2)).grad_fn is not None)
with torch.no_grad():
    @torch.enable_grad()
    def inner():
        return (w * 3).requires_grad
    print(inner(), (w * 3).requires_grad, torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print((w * 2).requires_grad, torch.is_grad_enabled())
print(torch.is_grad_enabled())
is_train = False
with torch.set_grad_enabled(is_train):
    y = w * 2
print(y.requires_grad)
torch.set_grad_enabled(False)
print((w * 2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
print((w * 2).requires_grad)
with torch.no_grad():
    with torch.enable_grad():
        print((w * 2).requires_grad)
    print((w * 2).requires_grad)
try:
    torch.set_grad_enabled(1)
except TypeError as e:
    print(repr(e))
