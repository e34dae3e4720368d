# Views share their base's storage (issue #23's tutorials write through them): a write into a view is seen by
# its base and a write into the base by its views, as PyTorch 2.13 prints them; a reshape that must copy does not.
import torch
x = torch.zeros(2, 3)
x.view(-1)[1] = 5
print(x)
y = x.view(3, 2); y[0, 0] = 7; print(x)
x[0][2] = 9; print(x)
x[1].fill_(1); print(x)
x.t()[0, 1] = 4; print(x)
x.reshape(-1)[5] = 3; print(x)
z = x[:, 1]; z += 10; print(x)
x.flatten()[0] = -1; print(x)
x.squeeze()[0, 0] = -2; print(x)
x.unsqueeze(0)[0, 1, 1] = -3; print(x)
x.T[2, 1] = -4; print(x)
x[0, :2].zero_(); print(x)
a = torch.arange(6.).reshape(2, 3)
v = a.t()
a.mul_(2)
print(v)
d = a.detach()
d[0, 0] = 100
print(a)
r = a.reshape(3, 2)
r[0] = torch.tensor([7., 8.])
print(a)
c = a.t().reshape(-1)   # a copy in PyTorch (not contiguous)
c[0] = -50
print(a, c)
s = a[0]
a[0, 1] = 42
print(s)
n = a.numpy()
n[1, 1] = 11
print(a, s)
w = torch.ones(3, requires_grad=True)
wv = w.detach()[1:]
with torch.no_grad():
    w -= 0.5
print(wv, w)
rows = [a[i] for i in range(2)]
a.zero_()
print(rows)
u = a.unsqueeze(0).squeeze(0)[1]
u.add_(3)
print(a)

# x.data = ... gives x another storage: its views keep the old one (an internal error before)
x = torch.zeros(3)
v = x[2]
x.data = torch.zeros(1)
x.add_(1)
print(x, v)
y = torch.zeros(2, 3)
w = y.t()
y.data = torch.ones(3, 2)
y.mul_(2)
print(y, w)
