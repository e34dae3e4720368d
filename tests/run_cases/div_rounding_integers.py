# torch.div of integer tensors with a rounding mode stays int64, as floor division does (it was float32); an integer
# division by zero raises PyTorch's ZeroDivisionError whatever the mode; bools have no floor or trunc kernel;
# rounding_mode=None is true division (a float32 result, DivBackward0).
import torch

a = torch.tensor([5, -7, 2**53 + 1, -(2**62) - 3]); b = torch.tensor([2, 2, 3, 5])
print(torch.div(a, b, rounding_mode='floor'), torch.div(a, b, rounding_mode='trunc'), a // b)
print(torch.div(a, 2, rounding_mode='trunc'), a.div(b, rounding_mode='floor'), torch.div(a, 2.5, rounding_mode='floor'))
print(torch.div(a[:2], b[:2], rounding_mode=None), torch.div(a[:2].float(), b[:2], rounding_mode='trunc'))
x = torch.tensor([3., -4.5], requires_grad=True)
y = torch.div(x, 2, rounding_mode=None)
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad)
for z in [torch.tensor([0, 1, 1, 1]), 0]:
    for mode in ['floor', 'trunc']:
        try:
            print(torch.div(a, z, rounding_mode=mode))
        except RuntimeError as e:
            print(type(e).__name__, e)
for mode in ['floor', 'trunc']:
    try:
        print(torch.div(torch.tensor([True]), torch.tensor([True]), rounding_mode=mode))
    except NotImplementedError as e:
        print(type(e).__name__, e)
