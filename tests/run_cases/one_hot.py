# F.one_hot as PyTorch gives it: int64 rows, num_classes inferred or given, any shape of indices, an empty input,
# the one-hot targets of a small classifier's loss, and PyTorch's errors for negative, too large and float classes.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
labels = torch.tensor([0, 2, 1])
print(F.one_hot(labels), F.one_hot(torch.tensor([[1], [0]]), 4).shape, F.one_hot(torch.tensor([], dtype=torch.long), 3))
logits = torch.randn(3, 3, requires_grad=True)
loss = -(F.one_hot(labels, 3) * F.log_softmax(logits, dim=1)).sum(dim=1).mean()
loss.backward()
print(loss, logits.grad)
for bad, n in ((torch.tensor([-1, 0]), -1), (torch.tensor([3]), 2), (torch.tensor([1.0]), -1), (torch.tensor([], dtype=torch.long), -1)):
    try:
        F.one_hot(bad, n)
    except RuntimeError as e:
        print(e)
