# A name the function never defined: Python's NameError, after what was printed.
import torch

def loss_fn(pred, target):
    return ((pred - target) ** 2).mean()

def train_step(w, x, y):
    loss = loss_fn(w * x, y)
    loss.backward()
    return grad_norm

w = torch.tensor(1.0, requires_grad=True)
print(loss_fn(w, 3.0))
train_step(w, torch.tensor([1.0, 2.0]), torch.tensor([2.0, 4.0]))
