# getattr, setattr and hasattr with the names obj.name is written with: MorvanZhou's setattr(self, 'fc%i' % i, fc)
# registers a submodule as the assignment does.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.fcs = []
        for i in range(2):
            fc = nn.Linear(1, 2)
            setattr(self, 'fc%i' % i, fc)
            self.fcs.append(fc)


torch.manual_seed(0)
net = Net()
print(net)
print(getattr(net, 'fc1').weight)
print(hasattr(net, 'fc1'), hasattr(net, 'fc7'), hasattr(net, 'fcs'))
print(getattr(net, 'fc9', None))
print([n for n, _ in net.named_parameters()])
x = torch.ones(2, requires_grad=True)
print(getattr(x, 'shape'), hasattr(x, 'grad'), getattr(torch, 'relu')(torch.tensor([-1., 2.])))
class P:
    pass
p = P()
setattr(p, 'lr', 0.1)
print(p.lr, getattr(p, 'lr'), hasattr(p, 'momentum'))
try:
    getattr(p, 'momentum')
except AttributeError as e:
    print(e)
try:
    getattr(p, 3)
except TypeError as e:
    print(e)
