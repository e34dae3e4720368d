import torch
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
loss = (w * w).sum()
loss.backward()
print(w.grad)
print(w.data)
w.data = w.data * 2
print(w, w.is_leaf, w.requires_grad)
with torch.no_grad():
    w -= 0.5 * w.grad
print(w)
w.grad.zero_()
loss = (w * w).sum()
loss.backward()
print(w.grad)
