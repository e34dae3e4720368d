# x.__class__ and .__name__ of classes, functions and types (a weight-init function that tests a layer's kind by
# m.__class__.__name__, as DCGAN's weights_init does), and str.find / count / partition / isdigit.
import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
class V:
    pass
def weights_init(m):
    classname = m.__class__.__name__
    print(classname, classname.find('Linear') != -1)
net = Net()
net.apply(weights_init)
print(V().__class__.__name__, V.__name__, weights_init.__name__, type(torch.ones(1)).__name__, nn.Linear.__name__)
print(net.__class__, type(net.fc).__name__, torch.ones(1).__class__.__name__, (1.5).__class__.__name__, type(3).__name__)
print("ConvTranspose2d".find("Conv"), "BatchNorm".find("Conv"), "a-b-c".count("-"), "a=b".partition("="), "12".isdigit())
print(type(torch.float32).__name__, type(torch.ones(1).shape).__name__, type(torch.optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)).__name__)
