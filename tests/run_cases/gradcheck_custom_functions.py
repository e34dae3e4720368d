# torch.autograd.gradcheck and gradgradcheck (PyTorch's slow mode): the extending docs' LinearFunction (its backward returns a None for the optional bias it was not given), a wrong backward (False, and PyTorch's GradcheckError), gradgradcheck's grad_outputs drawn from torch's generator; a custom Function's saved output is unpacked in the graph, so a backward with create_graph differentiates through it
import torch
from torch.autograd import gradcheck
torch.manual_seed(0)

class LinearFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias

linear = LinearFunction.apply
input = (torch.randn(20,20,dtype=torch.double,requires_grad=True), torch.randn(30,20,dtype=torch.double,requires_grad=True))
test = gradcheck(linear, input, eps=1e-6, atol=1e-4)
print(test)

class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x

x = torch.rand(3, dtype=torch.double, requires_grad=True)
print(gradcheck(Bad.apply, (x,), raise_exception=False))
print(torch.autograd.gradgradcheck(lambda t: (t ** 3).sum(), (x,)))
print(torch.rand(2))
y = torch.rand(2, requires_grad=True)
print(gradcheck(torch.sin, (y,), eps=1e-3, atol=1e-2))
try:
    gradcheck(Bad.apply, (x,))
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_out):
        result, = ctx.saved_tensors
        return result * grad_out

x = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
print(torch.autograd.gradcheck(Exp.apply, x), torch.autograd.gradgradcheck(Exp.apply, x))
out = Exp.apply(x)
grad_x, = torch.autograd.grad(out, x, create_graph=True)
print(grad_x)
print(torch.autograd.grad(grad_x, x))
