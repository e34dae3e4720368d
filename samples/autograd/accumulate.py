# Gradients accumulate over backward calls until zeroed; retain_graph keeps the graph for another pass
import torch

w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
x = torch.tensor([1.0, 2.0, 3.0])
loss = (w * x).sum() ** 2
loss.backward(retain_graph=True)
print(w.grad)
loss.backward()
print(w.grad)
w.grad.zero_()
print(w.grad)
loss2 = torch.sigmoid(w @ x)
loss2.backward()
print(w.grad, loss2.item())
print(loss2.grad_fn, loss2.grad_fn.next_functions[0][0].next_functions)
print(w.is_leaf, loss2.is_leaf, loss2.requires_grad, x.requires_grad)
with torch.no_grad():
    v = w * 2
print(v.requires_grad, v)
h = w.detach()
print(h, h.requires_grad)
print(w.shape, w.size(), w.dtype, w.tolist())
