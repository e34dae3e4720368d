# torch.optim.lr_scheduler as the optimizer docs and tutorials use it: StepLR, MultiStepLR, ExponentialLR, LambdaLR
# (one function, or one per param group), CosineAnnealingLR over more than one period; get_last_lr(),
# param_groups[0]['lr'], the optimizer's repr with its initial_lr, step(epoch)'s closed form, and a training loop
# whose steps use the scheduled rates.
import math
import torch
from torch.optim.lr_scheduler import StepLR, LambdaLR
torch.manual_seed(0)
w = torch.zeros(3, requires_grad=True)
target = torch.randn(3)


def run(make, steps=9):
    opt = torch.optim.SGD([w], lr=0.5, momentum=0.9)
    sched = make(opt)
    seen = []
    for epoch in range(steps):
        opt.zero_grad()
        ((w - target) ** 2).sum().backward()
        opt.step()
        sched.step()
        seen.append(sched.get_last_lr()[0])
    print(type(sched).__name__, seen, opt.param_groups[0]["lr"], sched.last_epoch)
    return opt


print(run(lambda o: StepLR(o, step_size=2, gamma=0.5)))
run(lambda o: torch.optim.lr_scheduler.MultiStepLR(o, milestones=[2, 5, 5], gamma=0.1))
run(lambda o: torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9))
run(lambda o: LambdaLR(o, lr_lambda=lambda epoch: 0.95 ** epoch))
run(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=4, eta_min=0.01), steps=13)
print(w)
opt = torch.optim.Adam([{"params": [w]}, {"params": [target.requires_grad_()], "lr": 0.1}], lr=0.01)
sched = LambdaLR(opt, [lambda e: 1 / (e + 1), lambda e: math.exp(-e)])
for _ in range(3):
    opt.step()
    sched.step()
print(sched.get_last_lr(), sched.base_lrs)
sched = StepLR(torch.optim.SGD([w], lr=1.0), step_size=3)
sched.step(7)
print(sched.get_last_lr())
try:
    LambdaLR(opt, [lambda e: 1.0])
except ValueError as e:
    print(repr(e))
