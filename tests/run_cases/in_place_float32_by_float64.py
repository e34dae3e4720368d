# A float32 tensor with a graph written in place with a float64 operand that requires grad: PyTorch computes in
# float64 and writes float32; the gradient reaching its node is float32 (the tensor's), the float64 operand's
# gradient float32's product cast up, the divisor's of div_ PyTorch's -g * ((a / b) / b) in float64.
import torch

x = torch.tensor([0.5, -1.5, 2.1], requires_grad=True)
d = torch.tensor([1.1, 2.0, 3.3], dtype=torch.float64, requires_grad=True)
for op in ["mul_", "add_", "div_", "sub_", "pow_", "atan2_", "copy_"]:
    w = x * 1.3
    getattr(w, op)(d)
    print(op, w.tolist(), w.grad_fn, w.dtype)
    (w * w).sum().backward()
    print(x.grad.tolist(), d.grad.tolist())
    x.grad = None
    d.grad = None

w = x * 1.3
v = w[1:]
v.div_(d[1:])
print(w.tolist(), w.grad_fn, v.grad_fn, w.dtype)
(w * w).sum().backward()
print(x.grad.tolist(), d.grad.tolist())
x.grad = None
d.grad = None
w = x * 1.3
w.mul_(d)
w += d
print(w.grad_fn, w.tolist())
(w * w * w).sum().backward()
print(x.grad.tolist(), d.grad.tolist())
