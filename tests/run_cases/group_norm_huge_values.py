# group_norm's moments are PyTorch's own steps (moments_utils.h's RowwiseMoments) where a square may overflow: a group
# whose difference squares past the largest double is NaN in PyTorch where it comes first, 0 where it comes after
# four lanes' worth (the two passes gave finite numbers); as layer_norm's. (Without a weight, PyTorch's zeros there
# are -0 where gradcli's are 0: printed alike.)
import torch
import torch.nn.functional as F

for v in ([1e300, -0.7], [-0.7, 1e300], [1e200, 1.], [1e154, 1.], [1e155, 1.], [1e300, 1., 2., 3.], [1., 2., 3., 1e300],
          [1., 2., 3., 4., 5., 1e300], [1e300, 1e300], [1e308, 1e308, 1.], [float('inf'), 1.], [1., 2., float('inf'), 4.]):
    a = torch.tensor(v, dtype=torch.float64).reshape(1, 1, -1)
    out, mean, rstd = torch.native_group_norm(a, None, None, 1, 1, len(v), 1, 0.5)
    print(v, out.abs(), mean, rstd)  # (abs: the signs of its zeros aside)
x = torch.tensor([[1e300, -0.7, 1., 2.], [0.5, 1.5, -1., 3.]], dtype=torch.float64, requires_grad=True)
w = torch.tensor([0.5, -1., 2., 1.], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=torch.float64, requires_grad=True)
y = F.group_norm(x, 2, w, b)
print(y)
y.sum().backward()
print(x.grad, w.grad, b.grad)
