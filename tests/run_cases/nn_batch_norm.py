# nn.BatchNorm1d / 2d and F.batch_norm as PyTorch runs them: the batch's statistics in training with running_mean,
# running_var and num_batches_tracked updated in place (momentum, and momentum=None's cumulative average), the
# running statistics in eval, affine=False, track_running_stats=False, state_dict's buffers, a small model trained a
# few steps, and PyTorch's errors for a wrong number of dims and one value per channel.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(8, 3) * 2 + 1
bn = nn.BatchNorm1d(3)
print(bn, bn(x))
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn(x * 3)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked, list(bn.state_dict().keys()))
bn.eval()
print(bn(x))
cum = nn.BatchNorm2d(2, momentum=None, affine=False)
images = torch.randn(4, 2, 3, 3)
for k in range(3):
    cum(images + k)
print(cum, cum.running_mean, cum.running_var, list(cum.parameters()))
free = nn.BatchNorm1d(3, track_running_stats=False)
print(free, free(x)[0], free.running_mean)
rm, rv = torch.zeros(3), torch.ones(3)
y = F.batch_norm(x, rm, rv, training=True, momentum=0.3)
print(y[:2], rm, rv)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
target = x.sum(1, keepdim=True)
for step in range(3):
    opt.zero_grad()
    loss = ((model(x) - target) ** 2).mean()
    loss.backward()
    opt.step()
    print(round(loss.item(), 4))
print(model[1].running_mean, model[1].num_batches_tracked)
for module, shape in ((nn.BatchNorm1d(3), (2, 3, 4, 5)), (nn.BatchNorm2d(3), (2, 3)), (nn.BatchNorm1d(3), (1, 3))):
    try:
        module(torch.randn(*shape))
    except ValueError as e:
        print(e)
