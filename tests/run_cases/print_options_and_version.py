# torch.__version__ (the PyTorch gradcli run follows) and torch.set_printoptions: precision, sci_mode forced on and
# off and left out again (chosen from the values), threshold and edgeitems for a summarized print, linewidth, the
# 'short' and 'full' profiles, and the default profile back.
import torch
print(torch.__version__)
torch.manual_seed(0)
x = torch.randn(3, 4) * 100
print(x)
torch.set_printoptions(precision=2)
print(x, torch.tensor([1e-5, 1.0]))
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-5, 1.0, 123456.0]))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([2.0, 3.5]), torch.tensor([1, 2]))
torch.set_printoptions(precision=6)
print(torch.tensor([0.1, 1e-5, 3.0]))
torch.set_printoptions(threshold=10, edgeitems=2)
print(torch.arange(30.0).reshape(5, 6))
torch.set_printoptions(linewidth=40)
print(torch.linspace(0, 1, 12))
torch.set_printoptions(profile="short")
print(torch.linspace(0, 1, 12), torch.arange(2000.0))
torch.set_printoptions(profile="full")
print(torch.arange(1100)[-5:], torch.arange(1001).shape)
torch.set_printoptions(profile="default")
print(x, torch.arange(2000.0))
