import torch
import torch.nn.functional as F
# The version of a leaf's new .grad (and of torch.autograd.grad's result) after a backward, as PyTorch's engine
# makes it: gradients of two edges into one node are added in place in its input buffer where the first one is a
# dense tensor of its own (w * w: version 1), out of place where it is a sum's expanded one (w.sum() + w.sum(): 0);
# AccumulateGrad copies an expanded one (w.sum(): version 1); a later backward adds into .grad in place (issue #21)
def leaf():
    return torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)


cases = {
    "w+w": lambda w: (w + w).sum(), "w*w": lambda w: (w * w).sum(), "w*2+w*3": lambda w: (w * 2 + w * 3).sum(),
    "w.sum()+(w*2).sum()": lambda w: w.sum() + (w * 2).sum(), "(w*2).sum()+w.sum()": lambda w: (w * 2).sum() + w.sum(),
    "w.sum()+w.sum()": lambda w: w.sum() + w.sum(), "w.sum()+w[0]+w[1]*2": lambda w: w.sum() + w[0] + w[1] * 2,
    "w[0]+w.sum()": lambda w: w[0] + w.sum(), "view then mul": lambda w: (w * 2).sum() + w.view(2, 1).sum(),
    "mul then view": lambda w: (w.view(2, 1) * 3).sum() + (w * 2).sum(), "w*w*w": lambda w: (w * w * w).sum(),
    "exp+sin": lambda w: (w.exp() + w.sin()).sum(), "mean+mean": lambda w: w.mean() + w.mean(),
    "w-w*2": lambda w: (w - w * 2).sum(), "w*2-w": lambda w: (w * 2 - w).sum(), "w*3+w": lambda w: (w * 3 + w).sum(),
    "w+w*3": lambda w: (w + w * 3).sum(), "clone*w": lambda w: (w.clone() * w).sum(), "(w*2).sum()": lambda w: (w * 2).sum(),
    "w.sum()": lambda w: w.sum(), "w@w": lambda w: w @ w, "(w+w).exp": lambda w: (w + w).exp().sum(),
    "(w+1)*2": lambda w: ((w + 1) * 2).sum(), "reshape": lambda w: ((w * 2).reshape(2, 1) * 3).sum(),
    "two reshapes": lambda w: (w.reshape(2, 1) * 3 + w.exp().reshape(2, 1)).sum(),
    "sum keepdim*w": lambda w: (w.sum(0, keepdim=True) * w).sum(), "w*w+w.sum()": lambda w: (w * w).sum() + w.sum(),
    "products of sums": lambda w: (w * 2).sum() * (w * 3).sum(), "w.exp().sum()+w.sum()": lambda w: w.exp().sum() + w.sum(),
    "outer": lambda w: (w[:, None] * w[None, :]).sum(), "t": lambda w: (w.reshape(1, 2).t() * w.reshape(2, 1)).sum(),
    "(w+w*2)*w": lambda w: ((w + w * 2) * w).sum(), "pow": lambda w: (w ** 2 + w ** 3).sum(),
}
for name, f in cases.items():
    w = leaf()
    f(w).backward()
    first = w.grad._version
    f(w).backward()
    g, = torch.autograd.grad(f(w), w)
    print(name, first, w.grad._version, g._version)
w, v = leaf(), leaf()
(w + v).exp().sum().backward()
print("(w+v).exp", w.grad._version, v.grad._version)
w, v = leaf(), leaf()
(v + w).exp().sum().backward()
print("(v+w).exp", w.grad._version, v.grad._version)
w = leaf()
for step in range(3):
    loss = ((w * 2 - 1) ** 2).sum() + (w * w).sum()
    loss.backward()
    print(step, w.grad, w.grad._version)
    with torch.no_grad():
        w -= 0.1 * w.grad
    w.grad.zero_()
    print(w.grad._version)


def matrix():
    return torch.arange(1.0, 5.0, dtype=torch.float64).reshape(2, 2).requires_grad_()


x = torch.tensor([[0.5, -1.0], [2.0, 1.5]], dtype=torch.float64)
cases = {
 "linear twice": lambda w: (F.linear(x, w) + F.linear(x * 2, w)).sum(),
 "mse": lambda w: F.mse_loss(x @ w, x) + (w ** 2).sum() * 0.1,
 "relu": lambda w: (w.relu() + w.tanh()).sum(),
 "w.T": lambda w: (w.T @ w).sum(),
 "w@w": lambda w: (w @ w).sum(),
 "norm": lambda w: w.norm() + w.sum(),
 "where": lambda w: torch.where(w > 2, w, w * 2).sum(),
 "cat": lambda w: torch.cat([w, w * 2]).sum(),
 "stack": lambda w: torch.stack([w, w]).pow(2).sum(),
 "w[0]+w[1]": lambda w: (w[0] * w[1]).sum(),
 "softmax": lambda w: (F.softmax(w, 1) * w).sum(),
 "mean dims": lambda w: w.mean(0).sum() + w.mean(1).sum(),
 "sum dims": lambda w: w.sum(0).pow(2).sum() + w.sum(1).pow(2).sum(),
 "flatten": lambda w: (w.flatten() * w.reshape(-1)).sum(),
 "clamp": lambda w: (w.clamp(min=2) + w.abs()).sum(),
 "div": lambda w: (w / (w + 1)).sum(),
 "add alpha": lambda w: torch.add(w, w, alpha=2).sum(),
 "expand": lambda w: (w[:1].expand(2, 2) * w).sum(),
}
for name, f in cases.items():
    w = matrix()
    f(w).backward()
    print(name, w.grad._version)
