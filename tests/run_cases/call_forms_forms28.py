import torch
import torch.nn.functional as F
# Call forms PyTorch takes or refuses, held to its output (issue #21, fuzz/call_forms.py's findings): the scatters'
# src by keyword,
a = torch.tensor([[1.0, 2.0, 4.0], [3.0, -3.0, 6.0]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.5, 1.5, -2.0], dtype=torch.float64, requires_grad=True)
s = torch.select_scatter(a, src=b, dim=0, index=1)
d = torch.diagonal_scatter(a, dim2=1, dim1=0, offset=1, src=b[:2])
print(s, d, a.select_scatter(index=1, dim=-1, src=b[:2]))
(s * d).sum().backward()
print(a.grad, b.grad)
