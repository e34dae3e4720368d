# gradcheck and gradgradcheck run a custom Function's forward and backward as PyTorch's slow mode does, in its
# order: the numerical Jacobian, each output's analytical one twice (the reentrancy check), a sweep of zero
# grad_outputs, then the function again for the undefined-gradient check (progfuzz30, --family custom)
import torch


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print("forward", x.shape)
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print("backward", g)
        return 2 * x * g


class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y, x + y

    @staticmethod
    def backward(ctx, ga, gb):
        x, y = ctx.saved_tensors
        print("two", ctx.needs_input_grad, ga, gb)
        return ga * y + gb, ga * x + gb


class Constant(torch.autograd.Function):  # a backward that ignores grad_output: right Jacobian, wrong rule
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return torch.ones_like(g)


x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(Square.apply, (x,)))
print(torch.autograd.gradcheck(Square.apply, (x,), check_undefined_grad=False))
a = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([2.0, 0.25], dtype=torch.float64)
print(torch.autograd.gradcheck(Two.apply, (a, b)))
b.requires_grad_()
print(torch.autograd.gradcheck(Two.apply, (a, b), eps=1e-6, atol=1e-4))
print(torch.autograd.gradcheck(Constant.apply, (x,), raise_exception=False))
try:
    torch.autograd.gradcheck(Constant.apply, (x,))
except Exception as e:
    print(type(e).__name__, e)
print(torch.autograd.gradgradcheck(Square.apply, (x[:2].detach().requires_grad_(),),
                                   grad_outputs=(torch.tensor([1.0, -0.5], dtype=torch.float64),)))


class Lazy(torch.autograd.Function):  # backward gets None for an output whose gradient is undefined
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x * 2, x ** 2

    @staticmethod
    def backward(ctx, ga, gb):
        x, = ctx.saved_tensors
        print("grads", ga is None, gb is None)
        total = torch.zeros_like(x)
        if ga is not None:
            total = total + 2 * ga
        if gb is not None:
            total = total + 2 * x * gb
        return total


class One(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 3

    @staticmethod
    def backward(ctx, g):
        print("one", g is None)
        return None if g is None else g * 3


print(torch.autograd.gradcheck(Lazy.apply, (x,)))
print(torch.autograd.gradcheck(One.apply, (x,)))
