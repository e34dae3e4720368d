# requires_grad_() and .requires_grad = of leaves and of computed tensors, as PyTorch takes and refuses them
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
print(y.requires_grad_() is y, y.requires_grad_(True).grad_fn)  # (a computed tensor already requires grad: kept)
print(y, y.is_leaf)
for attempt in ("y.requires_grad_(False)", "y.requires_grad = False", "y.requires_grad = True"):
    try:
        if attempt == "y.requires_grad_(False)":
            y.requires_grad_(False)
        elif attempt == "y.requires_grad = False":
            y.requires_grad = False
        else:
            y.requires_grad = True
    except RuntimeError as e:
        print(attempt, "->", e)
with torch.no_grad():
    z = x * 2
z.requires_grad_()
print(z, z.is_leaf)
(z * z).sum().backward()
print(z.grad)
i = torch.tensor([1, 2])
try:
    i.requires_grad_()
except RuntimeError as e:
    print("method:", e)
try:
    i.requires_grad = True
except RuntimeError as e:
    print("attribute:", e)
print(i.requires_grad_(False), i.requires_grad)
w = torch.ones(2, requires_grad=True)
w.requires_grad = False
print(w, w.is_leaf)
