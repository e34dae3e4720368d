# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_convolutional-modern/nin.md: its PyTorch cells in order, as written, except that each
# cell's last bare expression (which the notebook shows) is printed, torch.manual_seed(0) is added after the
# imports (the chapter draws unseeded random numbers), and the training cell (d2l.load_data_fashion_mnist: a dataset
# download) is cut, with the d2l import it needs.
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_convolutional-modern/nin.md
import torch
from torch import nn
torch.manual_seed(0)

def nin_block(in_channels, out_channels, kernel_size, strides, padding):
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, kernel_size, strides, padding),
        nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU())

net = nn.Sequential(
    nin_block(1, 96, kernel_size=11, strides=4, padding=0),
    nn.MaxPool2d(3, stride=2),
    nin_block(96, 256, kernel_size=5, strides=1, padding=2),
    nn.MaxPool2d(3, stride=2),
    nin_block(256, 384, kernel_size=3, strides=1, padding=1),
    nn.MaxPool2d(3, stride=2),
    nn.Dropout(0.5),
    # There are 10 label classes
    nin_block(384, 10, kernel_size=3, strides=1, padding=1),
    nn.AdaptiveAvgPool2d((1, 1)),
    # Transform the four-dimensional output into two-dimensional output with a
    # shape of (batch size, 10)
    nn.Flatten())

X = torch.rand(size=(1, 1, 224, 224))
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__,'output shape:\t', X.shape)
