# torch.empty(...) written before it is read, as custom modules and the 2018 tensor tutorial write it: an
# nn.Parameter(torch.empty(...)) drawn by nn.init and by .data.uniform_, torch.empty(...).fill_/zero_/normal_,
# torch.empty(2, 3, dtype=torch.float64) then copied into, and a training step through the module.
import math
import torch
import torch.nn as nn
torch.manual_seed(0)


class MyLinear(nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super(MyLinear, self).__init__()
        self.weight = nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(output_features))
        else:
            self.register_parameter('bias', None)
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        self.bias.data.uniform_(-0.1, 0.1)

    def forward(self, x):
        return x @ self.weight.t() + self.bias


m = MyLinear(3, 2)
print(m.weight, m.bias)
a = torch.empty(5, 7, dtype=torch.float)
a.fill_(3.5)
print(a[0], torch.empty(3).zero_(), torch.empty(2, 2).normal_(), torch.empty(4).uniform_(-1, 1))
b = torch.empty(2, 3, dtype=torch.float64)
b.copy_(torch.arange(6.0).reshape(2, 3))
print(b)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
loss = m(torch.ones(4, 3)).pow(2).mean()
loss.backward()
opt.step()
print(loss, m.weight)
