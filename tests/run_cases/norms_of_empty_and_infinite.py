# Normalizations at special points (issue #21), as PyTorch 2.13 computes them: an empty batch, empty groups,
# an infinite weight, a bool or integer input, the native ops' own checks of their arguments.
import torch
import torch.nn.functional as F

# F.batch_norm of an empty batch: x scaled and shifted, the running statistics left as they were
x = torch.zeros(0, 2, dtype=torch.float64, requires_grad=True)
w = torch.tensor([0.5, 2.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.1, 0.2], dtype=torch.float64, requires_grad=True)
rm, rv = torch.zeros(2, dtype=torch.float64), torch.ones(2, dtype=torch.float64)
out = F.batch_norm(x, rm, rv, weight=w, bias=b, training=True)
print(out.shape, rm, rv)
out.sum().backward()
print(x.grad, w.grad, b.grad)

# native_batch_norm refuses an empty input, and integers and bools have no kernel
for shape in ((0, 2), (0, 3), (3, 0), (0, 2, 4)):
    for f in (torch.native_batch_norm, torch._native_batch_norm_legit):
        try:
            print(f(torch.zeros(shape, dtype=torch.float64), w, None, rm, rv, True, 0.1, 1e-5)[0])
        except RuntimeError as e:
            print("caught", e)
for a in (torch.tensor([[0, 1], [2, 3], [1, 1]]), torch.tensor([[True, False], [False, True], [True, True]])):
    for training in (True, False):
        try:
            F.batch_norm(a, rm, rv, weight=w, training=training)
        except NotImplementedError as e:
            print("caught", e)

# group_norm of empty batches and of empty groups (their weight's gradient the NaN of a mean of nothing)
for shape in ((0, 4, 3), (0, 4), (2, 4, 0), (0, 4, 0)):
    y = torch.zeros(shape, dtype=torch.float64, requires_grad=True)
    w4 = torch.ones(4, dtype=torch.float64, requires_grad=True)
    b4 = torch.ones(4, dtype=torch.float64, requires_grad=True)
    out = F.group_norm(y, 2, w4, b4)
    print(out.shape)
    out.sum().backward()
    print(y.grad.shape, w4.grad, b4.grad)
    for hxw in (shape[-1] if len(shape) > 2 else 1, 5):
        try:
            print(torch.native_group_norm(y, w4, b4, shape[0], 4, hxw, 2, 1e-5)[0].shape)
        except RuntimeError as e:
            print("caught", e)

# an infinite weight: each group's sums of g x and g, per channel, times the weight (inf - inf is NaN, not all)
a = torch.tensor([[[-0.55, -1.22, 0.56], [-0.50, 1.49, 1.53], [0.12, 0.93, 1.88], [-0.86, -0.35, -1.49]],
                  [[-0.17, -1.58, -0.33], [0.61, 1.0, -0.42], [-1.51, 1.94, 0.65], [-1.3, 1.58, -0.37]]],
                 dtype=torch.float64, requires_grad=True)
for special in (float("inf"), -float("inf")):
    gamma = torch.tensor([special, -0.14, -1.34, 1.81], dtype=torch.float64, requires_grad=True)
    beta = torch.tensor([1.69, -0.47, 0.75, -0.53], dtype=torch.float64, requires_grad=True)
    out = torch.native_group_norm(a, gamma, beta, 2, 4, 3, 2, 1e-5)[0]
    out.backward((torch.arange(out.numel(), dtype=torch.float64) * 0.25 + 0.5).reshape(out.shape))
    print(out)
    print(a.grad, gamma.grad, beta.grad)
    a.grad = None
