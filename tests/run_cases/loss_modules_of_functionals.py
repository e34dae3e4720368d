# The loss modules of torch.nn that are one functional call with their settings: each constructed with its defaults
# and with settings given (by position and by keyword), printed, called, and differentiated, in float64.
import torch
import torch.nn as nn
x = torch.tensor([[0.3, -1.2, 2.0], [1.5, 0.1, -0.7]], dtype=torch.float64, requires_grad=True)
y = torch.tensor([[1.0, -0.5, 0.25], [-2.0, 0.5, 1.5]], dtype=torch.float64, requires_grad=True)
sign = torch.tensor([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]], dtype=torch.float64)
rows = torch.tensor([1.0, -1.0], dtype=torch.float64)
order = torch.tensor([1.0, 1.0, -1.0], dtype=torch.float64)  # (every pair inside the margin)
labels = torch.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]], dtype=torch.float64)
counts = torch.tensor([[2.0, 0.0, 1.0], [3.0, 1.0, 0.0]], dtype=torch.float64)
var = torch.tensor([[0.5, 1.0, 2.0], [1.5, 0.25, 1.0]], dtype=torch.float64, requires_grad=True)
cases = [
    (nn.MarginRankingLoss(), (x[0], y[0], order)),
    (nn.MarginRankingLoss(0.5, reduction='sum'), (x[0], y[0], order)),
    (nn.HingeEmbeddingLoss(), (x, sign)),
    (nn.HingeEmbeddingLoss(margin=2.0, reduction='none'), (x, sign)),
    (nn.SoftMarginLoss(), (x, sign)),
    (nn.CosineEmbeddingLoss(), (x, y, rows)),
    (nn.CosineEmbeddingLoss(margin=0.2), (x, y, rows)),
    (nn.TripletMarginLoss(), (x, y, y.flip(0))),
    (nn.TripletMarginLoss(margin=0.5, p=1, swap=True), (x, y, y.flip(0))),
    (nn.PoissonNLLLoss(), (x, counts)),
    (nn.PoissonNLLLoss(log_input=False, full=True), (x.abs(), counts)),
    (nn.GaussianNLLLoss(), (x, y, var)),
    (nn.GaussianNLLLoss(full=True, eps=1e-3, reduction='sum'), (x, y, var)),
    (nn.MultiLabelSoftMarginLoss(), (x, labels)),
    (nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64)), (x, labels)),
    (nn.KLDivLoss(reduction='batchmean'), (x.log_softmax(1), y.softmax(1))),
]
for loss, args in cases:
    x.grad = None
    y.grad = None
    out = loss(*args)
    print(loss, out)
    out.sum().backward()
    print(x.grad, y.grad)
print(type(nn.TripletMarginLoss()), isinstance(nn.SoftMarginLoss(), nn.Module))
