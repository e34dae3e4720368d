# add/sub with alpha= where a graph is involved (AddBackward0/SubBackward0 holding alpha: the gradient of the
# second operand is g * alpha), in place too (x.add_(y, alpha=-3) on a tensor with a graph), float64 fused as
# PyTorch's kernel fuses it (one rounding), and float64 optimizers whose steps are alpha= adds (SGD's weight
# decay, momentum, nesterov; Adam, Adagrad, RMSprop): their last digits.
import torch

x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
y = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
z = torch.add(x, y, alpha=2)
print(z, z.grad_fn, z.grad_fn.next_functions)
w = x * 1
w.add_(y, alpha=-3)
print(w, w.grad_fn)
w.sub_(y, alpha=0.5)
print(w, w.grad_fn)
z.sum().backward(retain_graph=True)
print(x.grad, y.grad)
w.sum().backward()
print(x.grad, y.grad)
q = torch.sub(x, y, alpha=2)
print(q, q.grad_fn, torch.add(x, 3, alpha=2).grad_fn.next_functions)
n = x.add(torch.tensor(3.), alpha=0.25)
print(n, n.grad_fn.next_functions)

a = torch.tensor([0.1, 1e-17, 3.3], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.7, 0.3, 1 / 3], dtype=torch.float64, requires_grad=True)
for alpha in [3.0, 0.1, -0.7]:
    s = torch.add(a, b, alpha=alpha)
    d = a.sub(b, alpha=alpha)
    (s * d).sum().backward()
    print(s.tolist(), d.tolist(), a.grad.tolist(), b.grad.tolist())
    a.grad = None
    b.grad = None

for name, options in [("SGD", dict(lr=0.13, momentum=0.9, weight_decay=0.037, nesterov=True)),
                      ("SGD", dict(lr=0.13, momentum=0.9, dampening=0.1, weight_decay=0.037)),
                      ("Adam", dict(lr=0.1, weight_decay=0.01)), ("AdamW", dict(lr=0.1)),
                      ("Adagrad", dict(lr=0.1, weight_decay=0.02)),
                      ("RMSprop", dict(lr=0.01, momentum=0.5, weight_decay=0.03))]:
    torch.manual_seed(1)
    p = torch.randn(6, dtype=torch.float64, requires_grad=True)
    opt = getattr(torch.optim, name)([p], **options)
    for _ in range(5):
        opt.zero_grad()
        ((p * 0.7 - 0.3) ** 2).sum().backward()
        opt.step()
    print(name, p.tolist())
