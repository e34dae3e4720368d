# torch.autograd's anomaly detection as debugging tutorials switch it on: set_detect_anomaly(True) as a statement,
# detect_anomaly() as a with block (PyTorch's warning on stderr), set_detect_anomaly(False) as a with block
# restoring the mode after it, torch.is_anomaly_enabled(), and backward passes without a NaN in them.
import torch

print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
x = torch.tensor([1.0, 4.0], requires_grad=True)
y = x.sqrt().sum()
with torch.autograd.detect_anomaly():
    z = (x * 2).sum()
    z.backward()
print(x.grad)
with torch.autograd.set_detect_anomaly(False):
    print(torch.is_anomaly_enabled())
print(torch.is_anomaly_enabled())
y.backward()
print(x.grad)
torch.autograd.set_detect_anomaly(False)
print(torch.is_anomaly_enabled())
