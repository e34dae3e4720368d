# Forward hooks as feature-extraction and debugging tutorials write them: register_forward_hook storing each
# layer's output in a dict, a hook that returns a replacement output, a pre-hook that changes the input,
# prepend=True, handle.remove(), named_modules() to hook every layer, and a deep copy keeping its own hooks.
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Sequential(nn.Linear(3, 2), nn.Tanh()))
activation = {}


def get_activation(name):
    def hook(model, input, output):
        activation[name] = output.detach()
    return hook


h1 = model[0].register_forward_hook(get_activation("fc1"))
h2 = model[2][0].register_forward_hook(get_activation("fc2"))
x = torch.randn(2, 4)
out = model(x)
print(activation["fc1"], activation["fc2"])
print(type(h1).__name__)


def double(module, inputs, output):
    print("double", type(module).__name__, len(inputs), inputs[0].shape, output.shape)
    return output * 2


def shift(module, inputs):
    print("shift", type(inputs).__name__)
    return inputs[0] + 1


h3 = model[1].register_forward_hook(double)
h4 = model[1].register_forward_pre_hook(shift)
h5 = model[1].register_forward_hook(lambda m, i, o: print("first", o.sum()), prepend=True)
print(model(x))
h3.remove()
h4.remove()
h5.remove()
h3.remove()
print(model(x))
for name, layer in model.named_modules():
    print(repr(name), type(layer).__name__)
    layer.register_forward_hook(lambda m, i, o: print("shape", type(m).__name__, tuple(o.shape)))
clone = copy.deepcopy(model)
clone(x)
h1.remove()
h2.remove()
print(len(activation))
