# register_buffer and register_parameter as modules use them: a buffer read in forward and replaced by assignment,
# in state_dict after the parameters (persistent=False left out), named_buffers through children, not among the
# parameters; register_parameter('bias', None) as the Extending PyTorch note's Linear writes it; PyTorch's errors
# for bad names and values.
import torch
import torch.nn as nn
torch.manual_seed(0)


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.register_buffer("scale", torch.tensor([2.0, 3.0]))
        self.register_buffer("cache", torch.zeros(2), persistent=False)
        self.register_parameter("bias", None)
        self.register_parameter("gain", nn.Parameter(torch.ones(2)))

    def forward(self, x):
        out = self.lin(x) * self.scale * self.gain
        self.cache = out.detach().sum(0)
        return out


m = Scale()
out = m(torch.ones(3, 2))
out.sum().backward()
print(out, m.cache, m.bias)
print(m.state_dict())
print([n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()], list(m.buffers()))
outer = nn.Sequential(m, nn.ReLU())
print([n for n, _ in outer.named_buffers()], list(outer.state_dict().keys()))
for args in ((1, torch.ones(1)), ("a.b", torch.ones(1)), ("", None), ("x", 3), ("scale", torch.ones(1))):
    try:
        m.register_buffer(*args)
    except (KeyError, TypeError) as e:
        print(type(e).__name__, e)
try:
    m.register_parameter("w", torch.ones(1))
except TypeError as e:
    print(e)
try:
    m.scale = 3
except TypeError as e:
    print(e)
