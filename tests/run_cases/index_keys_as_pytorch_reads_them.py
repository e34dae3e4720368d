# Keys that mix a boolean mask, ints, None and ... with other items, read and written as PyTorch reads them: its ints
# and Nones first (a view), then the index tensors and masks on that view (a mask is the indices of its True elements).
# Reading z[None, 0, [1, 2]] was an IndexError, and z[..., [0, 3]] too; writing y[0, :, [0, 1]] = v took v's shape
# the other way round (a (2, 3) value where PyTorch wants (3, 2): written silently transposed). A write's node is
# PyTorch's: CopySlices where the key makes a view (an int, a None, a slice short of the axis as written), else
# IndexPutBackward0 for an index, FillBackward3 for a number into the whole tensor, CopyBackwards for a tensor.
import torch

z = torch.arange(24., dtype=torch.float64).reshape(2, 3, 4).requires_grad_()
m = torch.tensor([[True, False, True], [False, True, True]])
print(z[m, [1]], z[m, 1:3].shape, z[m, 2].tolist(), z[:, m[0]].shape, z[[1], m[0]].tolist())
print(z[..., torch.tensor([True, False, False, True])].shape, z[m, torch.tensor([[0], [1]])].tolist())
print(z[None, 0, [1, 2]].shape, z[0, None, [1, 2]].shape, z[..., [0, 3]].shape, z[Ellipsis, 1].shape, ...)
r = z[m, [1]] * 2 + z[None, 0, [1, 2]].sum()
r.sum().backward()
print(z.grad)
for bad in (lambda: z[m[0], m[1]], lambda: z[torch.tensor([True, False, True]), 0],
            lambda: z[torch.tensor([[True, False, True, False]] * 3), 0], lambda: z[m[0:1], :, 0]):
    try:
        bad()
    except IndexError as e:
        print("IndexError:", e)

w = torch.zeros(2, 3, 4, dtype=torch.float64, requires_grad=True)
t = torch.ones(4, dtype=torch.float64, requires_grad=True)
s = torch.tensor(5.0, dtype=torch.float64, requires_grad=True)
for key in (slice(None), slice(0, 9), slice(-2, None), slice(1, None), ..., 0, (0, [1, 2]), (slice(None), [0, 1]),
            (m, 1), (None, [1])):
    for value in (5.0, t, s):
        y = w * 2
        y[key] = value
        print(key, type(value).__name__, y.grad_fn.name(), [f[0] and f[0].name() for f in y.grad_fn.next_functions])
        (y * torch.arange(24., dtype=torch.float64).reshape(2, 3, 4)).sum().backward()
        print(" ", w.grad.sum().item(), t.grad, s.grad)
        w.grad = t.grad = s.grad = None
y = torch.zeros(2, 3, 4)
y[0, :, [0, 1]] = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
y[m, 3] = -1.0
print(y)
for key, value in (((0, slice(None), [0, 1]), torch.ones(2, 3)), (slice(1, None), torch.ones(2, 3, 4)),
                   ((0, 1), torch.ones(2, 4, dtype=torch.float64)), ((slice(None), [0, 1]), torch.ones(3, 4)),
                   ((0, [1, 2]), torch.ones(5, 2, 4))):
    try:
        y[key] = value
    except RuntimeError as e:
        print("RuntimeError:", e)
