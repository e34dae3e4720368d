# A custom autograd.Function whose forward returns several tensors: backward gets one gradient per output (zeros
# for an output the loss does not use), gives one per input; its outputs' grad_fn is the call's one node (output_nr
# 0, 1, ...); create_graph differentiates its backward again; a non-differentiable output takes no gradient
import torch


class SinCos(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        s, c = torch.sin(x) * y, torch.cos(x) * y
        ctx.save_for_backward(x, y)
        return s, c, x * 2

    @staticmethod
    def backward(ctx, gs, gc, gd):
        x, y = ctx.saved_tensors
        print("backward got", gs, gc, gd)
        dx = gs * y * torch.cos(x) - gc * y * torch.sin(x) + gd * 2
        dy = gs * torch.sin(x) + gc * torch.cos(x)
        return dx, dy


x = torch.tensor([0.5, -1.25], dtype=torch.double, requires_grad=True)
y = torch.tensor([2.0, 3.0], dtype=torch.double, requires_grad=True)
s, c, d = SinCos.apply(x, y)
print(s, c, d)
print(s.grad_fn, c.grad_fn.next_functions, s.grad_fn is c.grad_fn)
print((s * c).grad_fn.next_functions[0][1], (s * c).grad_fn.next_functions[1][1])
(s.sum() + 2 * c.sum()).backward(retain_graph=True)
print(x.grad, y.grad)
x.grad = y.grad = None
c.sum().backward(retain_graph=True)  # s and d unused: their gradients are zeros
print(x.grad, y.grad)
gx, gy = torch.autograd.grad((s * c).sum(), (x, y), create_graph=True)
print(gx, gy)
print(torch.autograd.grad(gx.sum(), x))


class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        idx = torch.argmax(x)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return x * 3, idx.float()

    @staticmethod
    def backward(ctx, g, g_idx):
        print("g_idx", g_idx)
        return g * 3


v = torch.tensor([1.0, 4.0, 2.0], requires_grad=True)
a, i = Split.apply(v)
print(a, i, i.requires_grad)
a.sum().backward()
print(v.grad)
with torch.no_grad():
    print(SinCos.apply(x, y))
