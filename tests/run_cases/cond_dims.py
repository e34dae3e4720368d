# torch.linalg.cond of fewer than 2 dims in its own words ('The input tensor', not 'The input tensor A' as the other
# linalg functions say), and of a matrix of no entries PyTorch's zero of no graph.
import torch
for s in [(0,), (3,), ()]:
    try:
        torch.linalg.cond(torch.zeros(s, dtype=torch.float64, requires_grad=True))
    except Exception as e:
        print(type(e).__name__, e)
print(torch.linalg.cond(torch.zeros(0, 2, dtype=torch.float64, requires_grad=True)).grad_fn)
