import torch
# torch.linalg.norm of a matrix with an ord is the matrix norm (1: the largest column sum,
# inf: the largest row sum, 2: the largest singular value, 'nuc', 'fro'); without one, or along one dim, a vector
# norm. torch.norm and Tensor.norm stay vector norms of the flattened input.
m = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, -6.0]], dtype=torch.float64, requires_grad=True)
v = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64, requires_grad=True)
for out in [torch.linalg.norm(m, 1), torch.linalg.norm(m, float('inf')), torch.linalg.norm(m, -1),
            torch.linalg.norm(m, 2), torch.linalg.norm(m, 'nuc'), torch.linalg.norm(m, 'fro'), torch.linalg.norm(m),
            torch.linalg.norm(m, ord=1, dim=(1, 0)), torch.linalg.norm(m, 1, 1), torch.linalg.norm(m, dim=0),
            torch.linalg.norm(m, 1, keepdim=True), torch.linalg.norm(v, 1), torch.linalg.norm(v, float('inf')),
            torch.norm(m, 1), m.norm(1)]:
    print(out, out.grad_fn)
out = torch.linalg.norm(m, 1) + torch.linalg.norm(m, float('inf')) + torch.linalg.norm(v, 3)
out.backward()
print(m.grad, v.grad)
try:
    torch.linalg.norm(torch.ones(2, 2, 2, dtype=torch.float64), 1)
except RuntimeError as error:
    print("RuntimeError:", error)
