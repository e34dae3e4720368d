# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_linear-networks/linear-regression-concise.md: its PyTorch cells
# in order, as written, except that each cell's last bare expression (which the notebook shows) is printed,
# torch.manual_seed(0) is added after the imports (the chapter draws unseeded numbers), and d2l.synthetic_data is
# written inline as d2l/torch.py defines it (d2l.tensor and d2l.reshape are torch's).
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_linear-networks/linear-regression-concise.md
import numpy as np
import torch
from torch.utils import data
torch.manual_seed(0)

def synthetic_data(w, b, num_examples):  #@save
    """Generate y = Xw + b + noise."""
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, torch.reshape(y, (-1, 1))

true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 1000)

def load_array(data_arrays, batch_size, is_train=True):  #@save
    """Construct a PyTorch data iterator."""
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=is_train)

batch_size = 10
data_iter = load_array((features, labels), batch_size)

print(next(iter(data_iter)))

# `nn` is an abbreviation for neural networks
from torch import nn
net = nn.Sequential(nn.Linear(2, 1))

print(net[0].weight.data.normal_(0, 0.01))
print(net[0].bias.data.fill_(0))

loss = nn.MSELoss()

trainer = torch.optim.SGD(net.parameters(), lr=0.03)

num_epochs = 3
for epoch in range(num_epochs):
    for X, y in data_iter:
        l = loss(net(X) ,y)
        trainer.zero_grad()
        l.backward()
        trainer.step()
    l = loss(net(features), labels)
    print(f'epoch {epoch + 1}, loss {l:f}')

w = net[0].weight.data
print('error in estimating w:', true_w - torch.reshape(w, true_w.shape))
b = net[0].bias.data
print('error in estimating b:', true_b - b)
