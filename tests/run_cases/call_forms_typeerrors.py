import torch
import torch.nn.functional as F
# Calls PyTorch refuses for the count or the names of their args (one positional arg too many, a keyword it has not,
# one given twice, a required one missing): PyTorch's TypeError in its words, those of its argument parser for a
# torch. function or a Tensor method (a single signature's, or every signature listed with why those of the call's
# count did not match), Python's for a C method of no args and for torch.nn.functional's Python functions.
a = torch.tensor([[1.0, 2.0, 4.0], [3.0, -3.0, 6.0]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]], dtype=torch.float64)
calls = [
    lambda: torch.exp(a, 0),
    lambda: torch.exp(a, bogus=1),
    lambda: torch.sin(input=a, bogus=1),
    lambda: torch.cumsum(a, 0, 1),
    lambda: torch.flip(a, (0,), 0),
    lambda: torch.sum(a, 0, True, torch.float64, 0),
    lambda: torch.sum(a, 0, bogus=1),
    lambda: torch.sum(a, dim=0, dims=1),
    lambda: torch.std(a, 0, True, False, 0),
    lambda: torch.std(a, bogus=1),
    lambda: torch.std(a, 0, True, False, bogus=1),
    lambda: torch.std(a, bogus=1, zed=2),
    lambda: torch.max(a, 0, True, 0),
    lambda: torch.max(a, bogus=1),
    lambda: torch.pow(a, b, 0),
    lambda: torch.pow(a, b, bogus=1),
    lambda: torch.clamp(a, 0, 1, 0),
    lambda: torch.add(a, b, 2),
    lambda: torch.add(a, b, alpha=2, bogus=1),
    lambda: torch.mm(a, b.T, 0),
    lambda: torch.linalg.vector_norm(a, 2, 0, False, 0),
    lambda: torch.linalg.norm(a, bogus=1),
    lambda: a.exp(0),
    lambda: a.exp(bogus=1),
    lambda: a.t(bogus=1),
    lambda: a.std(0, True, False, 0),
    lambda: a.pow(b, 0),
    lambda: a.view(bogus=1),
    lambda: a.sum(0, True, torch.float64, 0),
    lambda: a.transpose(0, 1, 0),
    lambda: torch.norm(a, 2, 0, False, None, 0, 0),
    lambda: a.norm(2, 0, False, None, bogus=1),
    lambda: F.elu(a, 1.0, False, 0),
    lambda: F.elu(a, bogus=1),
    lambda: F.relu(a, False, 0),
    lambda: F.relu(a, inplace=False, input=a),
    lambda: F.softmax(a, 0, 3, torch.float64, 0),
    lambda: F.linear(a, b.T, None, 0),
    lambda: F.linear(a, b.T, bogus=1),
    lambda: F.mse_loss(a, b, None, None, 'mean', 0, 0),
]
for call in calls:
    try:
        print(call())
    except TypeError as error:
        print("TypeError:", error)
