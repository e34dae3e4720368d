# Errors of PyTorch's type where gradcli raised another: bmm of a bool first ("bmm" not implemented, before the
# dtypes are compared), _softmax_backward_data of integers whatever input_dtype says, F.pad's NotImplementedError,
# cross_entropy's batch size checked before its weight's requires_grad, linear_cross_entropy's target batch size
import torch
import torch.nn.functional as F
def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[-1])
a = torch.ones(2, 2, 2, dtype=torch.bool)
b = torch.ones(2, 2, 2, dtype=torch.float64)
attempt(lambda: torch.bmm(a, b))
attempt(lambda: torch.bmm(b, a))
attempt(lambda: torch.bmm(a, a))
attempt(lambda: torch.bmm(b.long(), b))
attempt(lambda: torch._softmax_backward_data(torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.float64), 0, torch.float64))
attempt(lambda: torch._softmax_backward_data(torch.ones(3, dtype=torch.bool), torch.ones(3, dtype=torch.float64), 0, torch.float64))
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
attempt(lambda: F.pad(x, (1, 1), mode="replicate"))
attempt(lambda: F.pad(x.reshape(1, 3), (1, 1, 1, 1), mode="reflect"))
logits = torch.linspace(-1, 1, 6, dtype=torch.float64).reshape(2, 3).requires_grad_()
w = torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64, requires_grad=True)
attempt(lambda: F.cross_entropy(logits, torch.tensor([1, 2, 0]), weight=w))
attempt(lambda: F.cross_entropy(logits, torch.tensor([1, 2]), weight=w))
attempt(lambda: F.cross_entropy(logits, torch.full((2, 3), 0.25, dtype=torch.float64), weight=w))
attempt(lambda: F.linear_cross_entropy(torch.zeros(0, 3, dtype=torch.float64), torch.ones(4, 3, dtype=torch.float64), torch.tensor([1, 1])))
