import torch
import math


class LegendrePolynomial3(torch.autograd.Function):
    # "Learning PyTorch with Examples": a custom autograd Function, fitted to sin(x)

    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)


dtype = torch.float
x = torch.linspace(-math.pi, math.pi, 6, dtype=dtype)
y = torch.sin(x)
a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, dtype=dtype, requires_grad=True)

learning_rate = 5e-4
for t in range(300):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, round(loss.item(), 4))
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None

print(f'Result: y = {a.item():.4f} + {b.item():.4f} * P3({c.item():.4f} + {d.item():.4f} x)')
print(y_pred.grad_fn, y_pred.grad_fn.next_functions[1][0].next_functions)


# The double backward tutorial: a Function whose backward is made of tensor ops is differentiated twice.
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x


x = torch.tensor([1.5, -2.0, 0.25], dtype=torch.double, requires_grad=True)
out = Square.apply(x)
print(out)
g, = torch.autograd.grad(out.sum(), x, create_graph=True)
print(g)
gg, = torch.autograd.grad(g.sum(), x)
print(gg)


class MulConstant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        print("needs", ctx.needs_input_grad)
        return grad_output * ctx.constant, None


w = torch.tensor([1.0, 2.0], requires_grad=True)
z = MulConstant.apply(w, 3.0)
z.sum().backward()
print(z, w.grad)
with torch.no_grad():
    print(MulConstant.apply(w, 2.0))
