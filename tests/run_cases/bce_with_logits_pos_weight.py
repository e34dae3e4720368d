import torch
import torch.nn.functional as F
# Binary cross entropy with logits, weighting the positive class.
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = torch.tensor([1.0, 0.0, 1.0])
pw = torch.tensor([3.0])
loss = F.binary_cross_entropy_with_logits(x, y, pos_weight=pw)
print(loss)
print(loss.grad_fn)
loss.backward()
print(x.grad)
print(F.binary_cross_entropy_with_logits(x, y))
print(F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.tensor([1.0, 2.0, 0.5])))
print(F.binary_cross_entropy_with_logits(x, y, pos_weight=pw, reduction='none'))
print(F.binary_cross_entropy_with_logits(x, y, weight=torch.tensor([1.0, 0.0, 2.0]), pos_weight=pw))
print(F.binary_cross_entropy(torch.sigmoid(x), y))
