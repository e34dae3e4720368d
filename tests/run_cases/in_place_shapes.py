# t.t_(), t.transpose_(0, 1), t.swapdims_/swapaxes_, t.unsqueeze_(0), t.squeeze_(): the tensor itself takes the new shape
# (with or without a graph: TBackward1, TransposeBackward1, UnsqueezeBackward1, SqueezeBackward3/4/5), its views keep
# reading the elements they read, and a view changed so writes into its base where it did
import torch
a = torch.ones(2, 3)
a.t_(); print(a.shape)
a.unsqueeze_(0); print(a.shape)
a.squeeze_(); print(a.shape)
a.transpose_(0, 1); print(a.shape)
a.unsqueeze_(-1); print(a.shape)
a.squeeze_(2); print(a.shape)
a.swapdims_(0, 1); print(a.shape)
a.swapaxes_(0, 1); print(a.shape)
v = a[0]
a.t_()
print(a.shape, v.shape, v)
x = torch.tensor([[0.3, 0.5, 0.7]], dtype=torch.float64, requires_grad=True)
for f in ["squeeze_()", "squeeze_(0)", "squeeze_((0,))", "unsqueeze_(0)", "t_()", "transpose_(0, 1)", "swapdims_(0,1)", "swapaxes_(0,1)"]:
    y = x * 1
    if f == "squeeze_()": z = y.squeeze_()
    elif f == "squeeze_(0)": z = y.squeeze_(0)
    elif f == "squeeze_((0,))": z = y.squeeze_((0,))
    elif f == "unsqueeze_(0)": z = y.unsqueeze_(0)
    elif f == "t_()": z = y.t_()
    elif f == "transpose_(0, 1)": z = y.transpose_(0, 1)
    elif f == "swapdims_(0,1)": z = y.swapdims_(0, 1)
    else: z = y.swapaxes_(0, 1)
    print(f, z.grad_fn.name(), z.shape, z is y, z.grad_fn.next_functions)
    (z * torch.arange(3.).reshape(z.shape)).sum().backward()
    print(x.grad); x.grad = None
b = torch.arange(6.).reshape(2, 3)
v = b[0]
b.t_()
b[0, 1] = 100
print(v, b)
v[0] = 7
print(b)
b = torch.arange(6.).reshape(2, 3)
v = b[0]
v.unsqueeze_(0)
v[0, 1] = 50
print(v.shape, b)
w = b.view(3, 2)
b.squeeze_()
b.unsqueeze_(1)
b[1, 0, 2] = -1
print(w, b.shape)
import numpy as np
n = np.zeros((2, 3))
t = torch.from_numpy(n)
t.t_()
t[0, 1] = 5
print(n, t)
x = torch.ones(2, 3, requires_grad=True)
y = x * 1
e = y.exp()
y.t_()
e.sum().backward()
print(x.grad)
x.grad = None
y = x.exp()
y.t_()
print(y._version if False else "", y.grad_fn.name())
try:
    y.sum().backward()
except RuntimeError as err:
    print(err)
y = x * 2
y.unsqueeze_(0).squeeze_(0).t_()
print(y.shape, y.grad_fn, y.grad_fn.next_functions)
y.backward(torch.arange(6.).reshape(3, 2))
print(x.grad)
try:
    torch.ones(2, 3, 4).t_()
except RuntimeError as err:
    print(err)
try:
    torch.ones(2, 3).transpose_(0, 5)
except IndexError as err:
    print(err)
