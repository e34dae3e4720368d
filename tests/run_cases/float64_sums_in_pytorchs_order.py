# Found by fuzz/programs.py: a float64 sum, mean or broadcast gradient in PyTorch's order (its CPU kernel adds 4 float64
# lanes, four vectors side by side, in a cascade; a mean is that sum divided by the count), not NumPy's pairwise
# order: `.item()` and `.tolist()` print 17 digits, where the two orders give other last bits.
import torch

for n in (3, 5, 6, 7, 9, 13, 16, 17, 33, 64, 100, 257, 1000):
    x = (torch.arange(n, dtype=torch.float64) * 0.37 + 0.1) / 3
    print(n, x.sum().item(), x.mean().item(), (x * 1.1).sum().tolist())
a = torch.tensor([[0.1, 0.2, 0.3, 0.4, 0.7], [1.1, -0.3, 0.25, 1e-3, 0.9], [0.6, 0.61, 0.62, 0.63, 0.64]],
                 dtype=torch.float64, requires_grad=True)
print(a.sum().item(), a.sum(0).tolist(), a.sum(1).tolist(), a.mean(1).tolist(), a.mean().item())
print(a.sum(dim=1, keepdim=True).tolist(), torch.sum(a, (0, 1)).item(), a.mean(0).tolist())
b = torch.tensor([0.3, 0.7, 0.11, 0.13, 0.17], dtype=torch.float64, requires_grad=True)
c = torch.tensor([[0.1], [0.2], [0.3]], dtype=torch.float64, requires_grad=True)
loss = ((a * 0.1 + b) * (a / 3 + c)).sum()
loss.backward()
print(loss.item())
print(b.grad.tolist())
print(c.grad.tolist())
print(a.grad.tolist())
big = torch.arange(60, dtype=torch.float64).reshape(3, 4, 5) / 7
print(big.sum((1, 2)).tolist(), big.sum(0).tolist(), big.sum(2).sum().item(), big.mean((1, 2)).tolist())
torch.manual_seed(0)
v = torch.randn(5, 40, dtype=torch.float64, requires_grad=True)
v.var(1).sum().backward()
print(v.var(1).tolist() == v.var(1).tolist(), v.grad[0, :6].tolist())
