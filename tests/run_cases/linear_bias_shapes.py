# F.linear with a bias of another shape than (out_features,), as PyTorch 2.13's at::linear takes it: a 2-D input is
# addmm's (the bias expanded to the product); an input of other dims (a vector too) is flattened to 2-D, addmm'd and
# viewed back where the bias is a vector or holds one number per output feature, else it is matmul's product with
# the bias added in place (AddBackward0; a bias that would grow the output is refused). addmm and addr of a bias of
# more dims than the product say expand's words. Each call's shape, node and sum, or its exception.
import torch
import torch.nn.functional as F

w = torch.tensor([[0.5, -1.0], [2.0, 1.0], [0.0, 0.5]], dtype=torch.float64, requires_grad=True)
biases = ([[0.5], [1.0], [2.0]], [[[0.5], [1.0], [2.0]]], [[0.5]], [0.5, 1.0, 2.0, 3.0], [[0.5, 1.0, 2.0]], [[[0.5]]],
          [[0.5, 1.0, 2.0], [1.0, 2.0, 3.0]], [[[0.5, 1.0, 2.0]], [[0.5, 1.0, 2.0]]], [0.5], 0.5, [0.5, 1.0, 2.0])
for shape in ((2,), (2, 2), (1, 2, 2), (2, 1, 2, 2)):
    x = torch.ones(shape, dtype=torch.float64, requires_grad=True)
    for b in biases:
        try:
            y = F.linear(x, w, torch.tensor(b, dtype=torch.float64))
            print(shape, b, tuple(y.shape), y.grad_fn.name(), y.sum().item())
        except RuntimeError as e:
            print(shape, b, "RuntimeError", e)

x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([[0.5, -0.5, 1.0]], dtype=torch.float64, requires_grad=True)
y = F.linear(x, w, b)
print(y, y.grad_fn.next_functions)
y.backward(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64))
print(x.grad, w.grad, b.grad)

m1, m2 = torch.ones(2, 2, dtype=torch.float64), torch.ones(2, 3, dtype=torch.float64)
for bias in ([[[0.5]]], [[0.5], [1.0], [2.0]], [0.5, 1.0, 2.0, 3.0]):
    for name, f in (("addmm", lambda t: torch.addmm(t, m1, m2)), ("addr", lambda t: torch.addr(t, m1[0], m2[0]))):
        try:
            print(name, tuple(f(torch.tensor(bias, dtype=torch.float64)).shape))
        except RuntimeError as e:
            print(name, bias, "RuntimeError", e)
