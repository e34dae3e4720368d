import torch
# A tensor argument given by its PyTorch keyword: torch.mm(a, mat2=b), torch.pow(a, exponent=b), ...
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([[0.5, 1.0], [1.5, 2.0]], dtype=torch.float64, requires_grad=True)
v = torch.tensor([1.0, -2.0], dtype=torch.float64, requires_grad=True)
i = torch.tensor([0, 3])
for out in [torch.mm(a, mat2=b), torch.mm(input=a, mat2=b), torch.bmm(a[None], mat2=b[None]), torch.mv(a, vec=v),
            torch.dot(v, tensor=v * 2), torch.outer(v, vec2=v), torch.pow(a, exponent=b), torch.take(a, index=i),
            torch.heaviside(a - 2, values=b), torch.cholesky_solve(b, torch.linalg.cholesky(a @ a.T), upper=False)]:
    print(out, out.grad_fn)
(torch.mm(a, mat2=b).sum() + torch.pow(a, exponent=b).sum() + torch.dot(v, tensor=v)).backward()
print(a.grad, b.grad, v.grad)
