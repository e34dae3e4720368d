# F.instance_norm in training updates running_mean and running_var in place, as PyTorch's does (each sample's
# statistics blended by the momentum, averaged over the batch); a running_mean of another dtype is read in the
# input's and written back in its own (a running_var of another dtype is PyTorch's RuntimeError) (#21)
import torch
import torch.nn.functional as F

a = torch.tensor([[[0.11, 0.42, -0.3], [-0.53, 0.66, 0.25], [1.42, -0.75, 0.5]],
                  [[-0.18, -0.77, 0.9], [0.54, -1.22, 0.1], [1.0, -1.97, -0.4]]], dtype=torch.float64, requires_grad=True)
w = torch.tensor([0.8, 1.1, -0.5], dtype=torch.float64, requires_grad=True)
for dtype in (torch.float64, torch.float32, torch.int64, torch.bool):
    rm = torch.tensor([0.69, -0.16, 2.21]).to(dtype)
    rv = torch.tensor([1.6, 0.5, 0.7], dtype=torch.float64)
    out = F.instance_norm(a, running_mean=rm, running_var=rv, weight=w, momentum=0.3)
    print(dtype, out.dtype, out.grad_fn.name(), [n[0].name() for n in out.grad_fn.next_functions])
    print(round((out * out).sum().item(), 9), rm, rm.tolist(), rv.tolist())
    print(round(F.instance_norm(a, running_mean=rm, running_var=rv, use_input_stats=False).sum().item(), 9))
F.instance_norm(a, running_mean=torch.zeros(3, dtype=torch.float64), running_var=torch.ones(3)).sum()
