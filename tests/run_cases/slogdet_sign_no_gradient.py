# slogdet's sign takes no gradient: a backward from the sign alone leaves a.grad None, as PyTorch's
# LinalgSlogdetBackward0 gives no gradient there (it was zeros); with logabsdet, the gradient is logabsdet's.
import torch
nan = float("nan")
for m in ([[0.6, -0.24], [-1.34, 2.]], [[0.6, -0.24], [-1.34, nan]], [[0., 0.], [0., 0.]]):
    a = torch.tensor(m, dtype=torch.float64, requires_grad=True)
    out = torch.linalg.slogdet(a)[0]
    print(out)
    out.backward()
    print(a.grad)
a = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64, requires_grad=True)
sign, logabs = torch.linalg.slogdet(a)
(sign + logabs).backward()
print(a.grad)
