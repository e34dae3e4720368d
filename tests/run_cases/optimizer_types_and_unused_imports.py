# type(opt) is torch.optim.SGD, as tutorials test it, and the classes printed as PyTorch prints them; an import of a
# PyTorch module gradcli run lacks is taken where the file never uses it (tutorials import
# torch.nn.utils.rnn's pack_padded_sequence beside code that does not call it).
import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
import torch.nn.utils.rnn as rnn_utils

x = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([x], lr=0.1)
print(torch.optim.SGD, torch.optim.Optimizer)
print(type(opt) is torch.optim.SGD, type(opt) == torch.optim.SGD, type(opt) is torch.optim.Adam)
print(isinstance(opt, torch.optim.SGD), isinstance(opt, torch.optim.Adam), isinstance(opt, torch.optim.Optimizer))
print(type(opt).__name__, type(opt))
a = torch.optim.Adam([x])
print(type(a), type(a) is torch.optim.Adam, type(a).__name__)
for kind in (torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW, torch.optim.Adagrad, torch.optim.RMSprop):
    print(kind, type(kind([x], lr=0.1)) is kind)
s = torch.optim.lr_scheduler.StepLR(opt, 2)
print(type(s), type(s) is torch.optim.lr_scheduler.StepLR)
