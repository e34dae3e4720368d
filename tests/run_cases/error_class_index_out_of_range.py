import torch
import torch.nn.functional as F
# A class index past the last class is PyTorch's own error.
x = torch.tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]], requires_grad=True)
print(F.cross_entropy(x, torch.tensor([1, 2])))
loss = F.cross_entropy(x, torch.tensor([1, 3]))
print(loss)
