# F.binary_cross_entropy_with_logits and nn.BCEWithLogitsLoss with weight= and pos_weight=: one node, its gradients to
# the input and the target, the weights' shapes and dtypes as PyTorch takes them
import torch
import torch.nn as nn
import torch.nn.functional as F
def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]], requires_grad=True)
y = torch.tensor([[1., 0., 1.], [0., 0.3, 1.]], requires_grad=True)
w = torch.tensor([1.0, 0.5, 2.0])
pw = torch.tensor([1.0, 2.0, 3.0])
l = F.binary_cross_entropy_with_logits(x, y, weight=w, pos_weight=pw)
print(l, l.grad_fn.next_functions)
l.backward()
print(x.grad, y.grad)
l = F.binary_cross_entropy_with_logits(x, y, w)
print(l, l.grad_fn.next_functions)
print(F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.tensor(2.0), reduction="none"))
print(F.binary_cross_entropy_with_logits(x.double(), y, pos_weight=torch.tensor([2.0, 1, 1])))
print(F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.tensor([2.0, 1, 1], dtype=torch.float64)))
print(F.binary_cross_entropy_with_logits(x, y, weight=None, pos_weight=None))
attempt(lambda: F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.tensor([1.0, 2.0])))
attempt(lambda: F.binary_cross_entropy_with_logits(x, y, weight=torch.tensor([1.0, 2.0])))
attempt(lambda: F.binary_cross_entropy_with_logits(x, y[0], pos_weight=pw))
attempt(lambda: F.binary_cross_entropy_with_logits(x, y, pos_weight=pw.requires_grad_()))
loss = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 3.0]))
print(loss)
x.grad = None
out = loss(x, y)
out.backward()
print(out, x.grad)
print(nn.BCEWithLogitsLoss(weight=w, reduction="sum")(x, y))
