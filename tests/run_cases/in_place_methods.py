# In-place methods where no graph is involved, as tutorials write them on .data and under no_grad: clamp_, relu_,
# exp_, abs_, neg_, sqrt_, pow_, sigmoid_, tanh_, copy_ (broadcast and cast), a .data alias seeing them, and
# PyTorch's error for an in-place change of a leaf that requires grad.
import torch
torch.manual_seed(0)
w = torch.randn(2, 3, requires_grad=True)
w.data.clamp_(-0.5, 0.5)
print(w)
d = w.data
d.mul_(4).relu_()
print(w, d.exp_().abs_().neg_())
x = torch.rand(4)
print(x.sqrt_(), x.pow_(2), x.sigmoid_(), x.tanh_(), x.clamp_(min=0.5), x.floor_(), x.add_(torch.ones(4)))
y = torch.zeros(2, 3)
y.copy_(torch.tensor([1.5, 2.5, 3.5]))
print(y)
n = torch.zeros(3, dtype=torch.int64)
n.copy_(torch.tensor([1.7, -2.2, 3.9]))
print(n)
with torch.no_grad():
    w.clamp_(0, 1)
    w.copy_(torch.ones(2, 3) * 0.25)
print(w)
try:
    w.clamp_(0, 1)
except RuntimeError as e:
    print(e)
