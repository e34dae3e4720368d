# nn.ModuleList and nn.ModuleDict as tutorials use them: layers built in a loop, their parameters registered,
# ModuleList's repr grouping equal layers, indexing, iteration, len, append/extend/insert, ModuleDict's keys, values,
# items, `in` and indexing, a model over them trained one step, len of a Sequential, and calling a ModuleList.
import torch
import torch.nn as nn
torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])
        self.acts = nn.ModuleDict({"relu": nn.ReLU(), "tanh": nn.Tanh()})

    def forward(self, x, act="relu"):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = self.acts[act](x)
        return x


net = MLP([3, 4, 4, 4, 1])
print(net)
print(len(net.layers), net.layers[0], net.layers[-1].weight.shape, "relu" in net.acts, "gelu" in net.acts)
print(list(net.acts.keys()), [type(m).__name__ for m in net.acts.values()], [k for k, _ in net.acts.items()])
print([name for name, _ in net.named_parameters()])
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.randn(5, 3)
loss = net(x, "tanh").pow(2).mean()
loss.backward()
opt.step()
print(loss, net(x).pow(2).mean())
ml = nn.ModuleList()
ml.append(nn.Linear(2, 2))
ml.extend([nn.ReLU(), nn.ReLU()])
ml.insert(0, nn.Tanh())
print(ml, len(ml), [k for k in nn.ModuleDict({"a": nn.ReLU()})])
seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
seq.append(nn.Linear(2, 1))
print(len(seq), seq)
try:
    ml(torch.ones(2))
except NotImplementedError as e:
    print(repr(e))
