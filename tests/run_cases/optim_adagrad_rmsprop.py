# torch.optim.Adagrad and RMSprop (lr_decay, weight_decay, initial_accumulator_value, alpha, momentum, eps):
# 60 steps each on a quadratic, the parameters' bits and the optimizer's repr as PyTorch 2.13 prints them.
import torch
torch.manual_seed(0)
target = torch.randn(5)
scale = torch.rand(5) + 0.5
for make in (lambda p: torch.optim.Adagrad(p, lr=0.1),
             lambda p: torch.optim.Adagrad(p, lr=0.05, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.1),
             lambda p: torch.optim.RMSprop(p, lr=0.01),
             lambda p: torch.optim.RMSprop(p, lr=0.01, alpha=0.9, momentum=0.9, weight_decay=0.01),
             lambda p: torch.optim.RMSprop(p, lr=0.003, eps=1e-6, maximize=True)):
    w = torch.zeros(5, requires_grad=True)
    opt = make([w])
    for step in range(60):
        opt.zero_grad()
        loss = (scale * (w - target) ** 2).sum()
        loss.backward()
        opt.step()
    print(opt)
    print(w.tolist())
