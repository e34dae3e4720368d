# F.relu(x, inplace=True) and the other activations' inplace= (L1aoXingyu's CBOW model): x takes the values where no graph
# is involved, a leaf that requires grad is PyTorch's error, and x = F.relu(x, inplace=True) in a graph as PyTorch's.
import torch
import torch.nn.functional as F
x = torch.tensor([-1.0, 0.5, 2.0])
y = F.relu(x, inplace=True)
print(x, y is x)
x = torch.tensor([-1.0, 0.5, 2.0])
print(F.elu(x, alpha=0.5, inplace=True), x)
print(F.leaky_relu(x, 0.2, inplace=False), x)
print(F.hardtanh(torch.tensor([-3.0, 3.0]), inplace=True))
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
h = w * 2
h = F.relu(h, inplace=True)
print(h)
h.sum().backward()
print(w.grad)
try:
    F.relu(w, inplace=True)
except RuntimeError as e:
    print(e)
i = torch.tensor([-1, 2])
print(F.relu(i, inplace=True), i)
with torch.no_grad():
    print(F.silu(w, inplace=True), w)
