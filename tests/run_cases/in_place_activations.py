# The activations written in place (F.elu(x, inplace=True), F.elu_(x), nn.ELU(inplace=True), x.polygamma_(1)):
# PyTorch records its in-place derivatives where it has them (EluBackward1, LeakyReluBackward1, ...), which
# save the result, so a later write into it is PyTorch's error at backward; the modules write into their input.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
for name in ["elu", "selu", "celu", "leaky_relu", "threshold", "hardtanh", "relu6", "hardsigmoid", "hardswish",
             "silu", "mish", "relu"]:
    y = x * 1
    if name == "threshold":
        z = F.threshold(y, 0.1, 20.0, inplace=True)
    else:
        z = getattr(F, name)(y, inplace=True)
    print(name, z.grad_fn.name(), z is y, [type(n[0]).__name__ for n in z.grad_fn.next_functions])
    z.sum().backward()
    print(x.grad)
    x.grad = None
for name in ["elu_", "leaky_relu_", "celu_", "selu_", "threshold_", "hardtanh_", "relu_"]:
    y = x * 1
    z = F.threshold_(y, 0.1, 20.0) if name == "threshold_" else getattr(F, name)(y)
    print("F." + name, z.grad_fn.name(), z is y)
for name in ["celu_", "selu_", "relu_", "sigmoid_", "tanh_"]:
    y = x * 1
    z = getattr(torch, name)(y)
    print("torch." + name, z.grad_fn.name(), z is y)
y = x * 1
print(y.polygamma_(1).grad_fn.name())

# a write into the result that EluBackward1 saved: PyTorch's error (the input's copy ThresholdBackward1 keeps: none)
for name in ["elu", "celu", "leaky_relu", "threshold", "relu", "hardtanh"]:
    y = x * 1
    z = F.threshold(y, 0.1, 20.0, inplace=True) if name == "threshold" else getattr(F, name)(y, inplace=True)
    z.add_(1)
    try:
        z.sum().backward()
        print(name, "backward", x.grad)
        x.grad = None
    except RuntimeError as e:
        print(name, "RuntimeError:", e)

# the modules
data = torch.tensor([-1.0, 0.5, 2.0])
relu = nn.ReLU(inplace=True)
out = relu(data)
print(data, out is data, relu)
try:
    relu(x)
except RuntimeError as e:
    print("RuntimeError:", e)
for module in [nn.ELU(inplace=True), nn.LeakyReLU(0.2, inplace=True), nn.SELU(inplace=True), nn.CELU(inplace=True),
               nn.Hardtanh(inplace=True), nn.Threshold(0.1, 20.0, inplace=True), nn.SiLU(inplace=True),
               nn.ReLU6(inplace=True), nn.Mish(inplace=True), nn.Hardsigmoid(inplace=True), nn.Hardswish(inplace=True)]:
    y = x * 1
    z = module(y)
    print(module, z.grad_fn.name(), z is y)
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.LeakyReLU(0.2, inplace=True), nn.Linear(4, 1), nn.ELU(inplace=True))
out = net(torch.ones(2, 3))
print(out.grad_fn, out.grad_fn.next_functions[0][0].next_functions)
out.sum().backward()
print(net[0].weight.grad)
with torch.no_grad():
    z = torch.tensor([-2.0, 3.0])
    nn.Hardtanh(inplace=True)(z)
    print(z)

# LeakyReluBackward1 reads the result: with a negative slope PyTorch refuses its backward
y = x * 1
z = F.leaky_relu(y, -0.5, inplace=True)
print(z)
try:
    z.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
