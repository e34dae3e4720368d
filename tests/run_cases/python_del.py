# `del` as tutorials write it: freeing a name after a step, items of lists and dicts, several targets,
# a name deleted inside a function, and the NameError / KeyError / IndexError Python raises after it.
import torch

x = torch.ones(2, requires_grad=True)
loss = (x * 3).sum()
loss.backward()
del loss
print(x.grad)
try:
    print(loss)
except NameError as e:
    print("NameError:", e)

layers = [1, 2, 3, 4, 5]
del layers[0]
del layers[1:3]
print(layers)
state = {"lr": 0.1, "momentum": 0.9, "step": 3}
del state["step"]
print(state)
a, b = 1, 2
del a, b
try:
    del state["missing"]
except KeyError as e:
    print("KeyError:", e)
try:
    del layers[10]
except IndexError as e:
    print("IndexError:", e)


def train_step():
    out = torch.tensor([1.0, 2.0]) * 2
    total = out.sum()
    del out
    return total


print(train_step())
