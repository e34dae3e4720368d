# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_recurrent-neural-networks/rnn.md: its PyTorch cells in order, as written,
# except that each cell's last bare expression (which the notebook shows) is printed;
# torch.manual_seed(0) is added after the imports (the chapter draws unseeded random numbers).
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_recurrent-neural-networks/rnn.md

import torch
torch.manual_seed(0)

X, W_xh = torch.normal(0, 1, (3, 1)), torch.normal(0, 1, (1, 4))
H, W_hh = torch.normal(0, 1, (3, 4)), torch.normal(0, 1, (4, 4))
print(torch.matmul(X, W_xh) + torch.matmul(H, W_hh))

print(torch.matmul(torch.cat((X, H), 1), torch.cat((W_xh, W_hh), 0)))
