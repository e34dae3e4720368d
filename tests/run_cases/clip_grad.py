# Gradient clipping as training loops write it: nn.utils.clip_grad_norm_ (its returned total norm, the
# gradients scaled in place when over max_norm and left as they are under it, norm_type=inf and 1, a
# single tensor), clip_grad_value_, and both through `from torch.nn.utils import ...`.
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
x = torch.randn(16, 4)
y = torch.randn(16, 1)
loss = nn.functional.mse_loss(model(x), y) * 100
loss.backward()
total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(total)
print(model[0].bias.grad)
print(torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0))
print(model[2].weight.grad)
print(nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=float("inf")))
print(clip_grad_norm_(model[0].weight, 0.1, norm_type=1))
print(model[0].weight.grad[0])
print(clip_grad_value_(model.parameters(), 0.01))
print(model[0].weight.grad[1], model[2].bias.grad)

