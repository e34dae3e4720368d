# logaddexp and logaddexp2 of a bool (or integer) tensor and a float one compute in the float dtype, as PyTorch's
# kernel does; of integers or bools alone, PyTorch's NotImplementedError; a backward into either subtracts them:
# PyTorch's error for a bool there.
import torch
a = torch.tensor([True, False, True])
b = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
print(torch.logaddexp(a, b), torch.logaddexp2(b, a))
print(torch.logaddexp(a.long(), b))
for f in (torch.logaddexp, torch.logaddexp2):
    for x, y in ((a, a), (a.long(), b.detach().long()), (a.long(), a)):
        try:
            print(f(x, y))
        except NotImplementedError as e:
            print("NotImplementedError", e)
c = torch.tensor([0.25, 1.0, -3.0], requires_grad=True)
out = torch.logaddexp(a, c) + torch.logaddexp2(c, a)
out.sum().backward()
print(out, c.grad)
