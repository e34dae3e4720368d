# CUDA on PyTorch's CPU build: t.cuda(), t.cuda(1), .to('cuda'), device='cuda' in a constructor, module.cuda() and .to('cuda') raise its errors (AssertionError, RuntimeError), 'mps' its RuntimeError; the CPU is the tensor itself
import torch
from torch import nn
for f in (lambda: torch.ones(2).cuda(1), lambda: torch.ones(2).cuda(0), lambda: torch.ones(2).cuda('cuda:1'),
          lambda: torch.ones(2).cuda(device=1), lambda: nn.Linear(1, 1).cuda(), lambda: torch.ones(2).cpu(),
          lambda: torch.ones(2).to('cuda:1'), lambda: torch.ones(2).cuda(torch.device('cuda:1')),
          lambda: torch.ones(2).to(torch.device('cuda')), lambda: nn.Linear(1, 1).to('cuda'),
          lambda: torch.zeros(2, device=torch.device('cuda', 0)), lambda: torch.tensor([1.], device='cuda'),
          lambda: torch.ones(2).to('mps'), lambda: torch.rand(2, device='cuda'), lambda: torch.ones(2).to('cpu'),
          lambda: torch.ones(2).to(device='cpu', dtype=torch.float64), lambda: nn.Linear(1, 1).to(torch.device('cpu')),
          lambda: torch.ones(2).cuda()):
    try:
        print(f())
    except (AssertionError, RuntimeError) as e:
        print(type(e).__name__, e)
