# nn.Identity is argument-insensitive: its __init__ takes any arguments and keeps none (visualizing_gradients_tutorial
# passes norm_layer(out_size) with nn.Identity as norm_layer); its forward takes one input and returns it.
import torch
import torch.nn as nn
x = torch.tensor([1.0, -2.0], requires_grad=True)
for m in (nn.Identity(), nn.Identity(54), nn.Identity(128, unused_argname=0.1), nn.Identity(3, 4, eps=1e-5)):
    print(m, m(x) is x, list(m.parameters()))
print(nn.Sequential(nn.Linear(2, 2), nn.Identity(2), nn.Sigmoid()))
try:
    nn.Identity()(x, x)
except TypeError as e:
    print(e)
try:
    nn.Identity()()
except TypeError as e:
    print(e)
print(nn.Identity()(input=x) is x)
try:
    nn.Dropout()(x, x)  # (Python's words for a forward whose one argument has no default)
except TypeError as e:
    print(e)
try:
    nn.Linear(2, 3, True, None, None, 5)
except TypeError as e:
    print(e)
