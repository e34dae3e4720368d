# t.fill_(v), t.zero_(), t.copy_(src) where a graph is involved (in t or in what it takes): recorded as PyTorch
# records them (FillBackward2/3, ZeroBackward0, CopyBackwards; through a view, CopySlices on its base)
import torch
x = torch.tensor([[0.3, 0.5, 0.7]], dtype=torch.float64, requires_grad=True)
v = torch.tensor(2.5, dtype=torch.float64, requires_grad=True)
w3 = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
y = x * 1; print(y.fill_(2.0), y.grad_fn.name(), y.grad_fn.next_functions)
(y * w3).sum().backward(); print(x.grad); x.grad = None
y = x * 1; print(y.fill_(v).grad_fn.name(), y.grad_fn.next_functions); (y * w3).sum().backward(); print(x.grad, v.grad); x.grad = None; v.grad = None
y = x * 1; print(y.fill_(torch.tensor(4.0)).grad_fn.name(), y.grad_fn.next_functions, y)
y = x * 1; print(y.zero_(), y.grad_fn.name(), y.grad_fn.next_functions); (y * w3).sum().backward(); print(x.grad); x.grad = None
y = x * 1; y.copy_(v); print(y, y.grad_fn, y.grad_fn.name(), y.grad_fn.next_functions); (y * w3).sum().backward(); print(x.grad, v.grad); x.grad = None; v.grad = None
y = x * 1; y.copy_(v.float()); print(y.grad_fn.name(), y.grad_fn.next_functions, y.dtype)
(y * w3).sum().backward(); print(x.grad, v.grad); x.grad = None; v.grad = None
y = x.float() * 1; y.copy_(x * 2); print(y.grad_fn.name(), y.grad_fn.next_functions, y.dtype, y)
(y * 3).sum().backward(); print(x.grad, x.grad.dtype); x.grad = None
w = torch.zeros(3, dtype=torch.float64); w.fill_(v); print(w, w.grad_fn.name(), w.requires_grad, w.is_leaf)
w = torch.zeros(3, dtype=torch.float64); w.copy_(x[0]); print(w, w.grad_fn.name(), w.requires_grad, w.grad_fn.next_functions)
(w * w3).sum().backward(); print(x.grad); x.grad = None
w = torch.zeros(2, 3, dtype=torch.float64); w.copy_(x); (w * 2).sum().backward(); print(x.grad); x.grad = None
for bad in ["x.zero_()", "x.fill_(1.0)", "x.copy_(v)"]:
    try:
        if bad == "x.zero_()":
            x.zero_()
        elif bad == "x.fill_(1.0)":
            x.fill_(1.0)
        else:
            x.copy_(v)
    except RuntimeError as e:
        print(bad, e)
with torch.no_grad():
    x.zero_()
print(x)
# a view written with fill_/zero_/copy_: CopySlices on its base
b = x * 1
b[0, 1:].fill_(v)
print(b, b.grad_fn)
b.sum().backward(); print(x.grad, v.grad); x.grad = None; v.grad = None
b = x * 1
b[:, 0].zero_(); print(b, b.grad_fn)
b = x * 1
e = b.exp()
b.copy_(v)
try:
    e.sum().backward()
except RuntimeError as err:
    print(err)
