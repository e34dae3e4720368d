# t.numpy() of a tensor that requires grad: PyTorch's error with grad mode on; with it off (torch.no_grad(), a custom
# Function's forward) the tensor's own array, an in-place change of it seen in the tensor.
import torch
x = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    a = x.numpy()
    a += 1
print(x)
print(a)
try:
    x.numpy()
except RuntimeError as e:
    print(e)
print(x.detach().numpy())
