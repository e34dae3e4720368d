# nn.init.calculate_gain: PyTorch's gain for each nonlinearity (an int 1 for the linear ones and sigmoid), leaky_relu's
# slope, and its ValueErrors.
import torch.nn as nn
for name in ["linear", "conv1d", "conv_transpose2d", "sigmoid", "tanh", "relu", "leaky_relu", "selu"]:
    print(name, nn.init.calculate_gain(name))
print(nn.init.calculate_gain('leaky_relu', 0.2), nn.init.calculate_gain('leaky_relu', param=1))
try:
    nn.init.calculate_gain('leaky_relu', True)
except ValueError as e:
    print(e)
try:
    nn.init.calculate_gain('gelu')
except ValueError as e:
    print(e)
