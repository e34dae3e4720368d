# A custom autograd.Function's outputs of every kind: an integer output takes no gradient (backward gets zeros of
# its dtype), a non-tensor is returned as it is (backward gets None), a tensor returned twice is one tensor (output
# of its last place), an input returned is an output; set_materialize_grads(False): None for an unused output
import torch


class Sort(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = torch.sort(x)
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i, 7

    @staticmethod
    def backward(ctx, g, gi, gn):
        i, = ctx.saved_tensors
        print("backward got", g, gi, gn)
        out = torch.zeros_like(g)
        out[i] = g
        return out


x = torch.tensor([3.0, 1.0, 2.0], dtype=torch.double, requires_grad=True)
v, i, n = Sort.apply(x)
print(v, i, n, i.requires_grad, v.grad_fn.next_functions)
(v * torch.tensor([1.0, 2.0, 3.0], dtype=torch.double)).sum().backward()
print(x.grad)


class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        z = x * 2
        return z, y, z

    @staticmethod
    def backward(ctx, g1, g2, g3):
        print("backward got", g1, g2, g3)
        return (g1 + g3) * 2, g2


y = torch.tensor([4.0, 5.0, 6.0], dtype=torch.double, requires_grad=True)
a, b, c = Twice.apply(x, y)
print(a is c, b is y, a.grad_fn is b.grad_fn, b.grad_fn)
x.grad = None
(a.sum() + 3 * c.sum() + (b * b).sum()).backward()
print(x.grad, y.grad)


class Lazy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return torch.sin(x), torch.cos(x), torch.argmax(x)

    @staticmethod
    def backward(ctx, gs, gc, gi):
        x, = ctx.saved_tensors
        print("backward got", gs, gc, gi)
        r = torch.zeros_like(x)
        if gs is not None:
            r = r + gs * torch.cos(x)
        if gc is not None:
            r = r - gc * torch.sin(x)
        return r


s, c, i = Lazy.apply(x)
s.sum().backward()
print(x.grad)
s, c, i = Lazy.apply(x)
g, = torch.autograd.grad((c * c).sum(), x, create_graph=True)
print(g)
print(torch.autograd.grad(g.sum(), x))


class Argmax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.argmax(x)

    @staticmethod
    def backward(ctx, g):
        return g


k = Argmax.apply(x)
print(k, k.requires_grad, k.grad_fn)


class Nothing(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return ()

    @staticmethod
    def backward(ctx):
        return None


print(Nothing.apply(x))
