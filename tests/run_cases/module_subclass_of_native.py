# a class of the file deriving from a native module (nn.Linear, nn.MSELoss, nn.CrossEntropyLoss, nn.Sequential): its native __init__ at super().__init__(...), super().forward, its own attributes; a loss module's reduction set after construction
import torch
from torch import nn
torch.manual_seed(0)

class MyLinear(nn.Linear):
    def __init__(self, a, b, scale=2.0):
        self.scale = scale
        super().__init__(a, b)

    def forward(self, x):
        return super().forward(x) * self.scale

m = MyLinear(3, 2)
print(m)
print(m.scale, m.weight.shape, isinstance(m, nn.Linear), isinstance(m, nn.Module))
x = torch.ones(1, 3)
y = m(x)
print(y)
y.sum().backward()
print(m.weight.grad)
print([n for n, _ in m.named_parameters()])

class Quiet(nn.MSELoss):
    pass

q = Quiet(reduction='sum')
print(q, q(torch.ones(2), torch.zeros(2)))

class Masked(nn.CrossEntropyLoss):
    def forward(self, pred, label, weights):
        self.reduction = 'none'
        unweighted = super(Masked, self).forward(pred, label)
        return (unweighted * weights).mean()

loss = Masked()
print(loss(torch.ones(3, 4), torch.tensor([0, 1, 2]), torch.tensor([1., 0., 1.])))
l2 = nn.CrossEntropyLoss()
l2.reduction = 'sum'
print(l2(torch.ones(2, 3), torch.tensor([0, 1])))

class Net(nn.Sequential):
    def __init__(self):
        super().__init__(nn.Linear(2, 2), nn.ReLU())

n = Net()
print(n, n(torch.ones(1, 2)).shape, len(n))
