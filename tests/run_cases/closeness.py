# torch.allclose, isclose and equal (functions and methods) as PyTorch computes them: rtol and atol in the tensors'
# dtype, equal_nan, broadcasting, integers, a float32 sum checked against its float64 one, and PyTorch's errors for
# two dtypes and shapes that do not broadcast.
import torch
torch.manual_seed(0)
a = torch.randn(1000)
print(torch.allclose(a.sum(), a.double().sum().float()), a.allclose(a + 1e-6), torch.allclose(a, a + 1e-3))
print(torch.isclose(torch.tensor([1.0, 2.0, float('nan'), float('inf')]), torch.tensor([1.00001, 2.1, float('nan'), float('inf')])))
print(torch.isclose(torch.tensor([float('nan')]), torch.tensor([float('nan')]), equal_nan=True), torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])))
print(torch.allclose(torch.ones(2, 3), torch.ones(3), rtol=0, atol=0), a.isclose(a * 1.01, rtol=0.02).all())
print(torch.equal(a, a.clone()), torch.equal(torch.tensor([1, 2]), torch.tensor([1.0, 2.0])), torch.ones(2).equal(torch.ones(3)))
x = torch.linspace(-3, 3, 101, requires_grad=True)
y = torch.sigmoid(x)
y.sum().backward()
print(torch.allclose(x.grad, y * (1 - y)), torch.allclose(x.grad, y * (1 - y), atol=0, rtol=0))
for other in (torch.ones(2, dtype=torch.float64), torch.ones(3)):
    try:
        torch.allclose(torch.ones(2), other)
    except RuntimeError as e:
        print(e)
