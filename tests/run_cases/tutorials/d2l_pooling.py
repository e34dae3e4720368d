# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_convolutional-neural-networks/pooling.md: its PyTorch cells in order, as written,
# except that each cell's last bare expression (which the notebook shows) is printed;
# and the d2l helpers the cells call are written inline as d2l/torch.py defines them,
# `d2l.` dropped (d2l.tensor, d2l.zeros ... are torch's own: written torch.tensor ...).
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_convolutional-neural-networks/pooling.md

import torch
from torch import nn

# d2l/torch.py's helpers
reshape = lambda x, *args, **kwargs: x.reshape(*args, **kwargs)

def pool2d(X, pool_size, mode='max'):
    p_h, p_w = pool_size
    Y = torch.zeros((X.shape[0] - p_h + 1, X.shape[1] - p_w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            if mode == 'max':
                Y[i, j] = X[i: i + p_h, j: j + p_w].max()
            elif mode == 'avg':
                Y[i, j] = X[i: i + p_h, j: j + p_w].mean()
    return Y

X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
print(pool2d(X, (2, 2)))

print(pool2d(X, (2, 2), 'avg'))

X = reshape(torch.arange(16, dtype=torch.float32), (1, 1, 4, 4))
print(X)

pool2d = nn.MaxPool2d(3)
print(pool2d(X))

pool2d = nn.MaxPool2d(3, padding=1, stride=2)
print(pool2d(X))

pool2d = nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))
print(pool2d(X))

X = torch.cat((X, X + 1), 1)
print(X)

pool2d = nn.MaxPool2d(3, padding=1, stride=2)
print(pool2d(X))
