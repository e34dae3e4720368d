# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_convolutional-neural-networks/lenet.md: its PyTorch cells that
# need no dataset, in order, as written (the network and the loop printing each layer's output shape), with
# torch.manual_seed(0) added after the imports (the chapter draws unseeded random numbers); the cells that load
# Fashion-MNIST (a download) and train on it (d2l.load_data_fashion_mnist, evaluate_accuracy_gpu, train_ch6 and
# its call, whose Animator and Timer only draw and time) are cut.
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_convolutional-neural-networks/lenet.md
import torch
from torch import nn
torch.manual_seed(0)

net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.Sigmoid(),
    nn.Linear(84, 10))

X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__,'output shape: \t',X.shape)
