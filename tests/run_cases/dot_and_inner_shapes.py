# dot, vdot and inner of tensors whose shapes they do not take, and t.dot of matrices (MorvanZhou's torch/numpy lesson): PyTorch's errors in its words.
import torch
a = torch.ones(2, 2)
for x, y in [(a, a), (torch.ones(2), a), (a, torch.ones(2)), (torch.ones(2), torch.ones(3)), (torch.tensor(1.), torch.ones(2)), (torch.ones(2), torch.ones(2, dtype=torch.float64))]:
    for f in [torch.dot, torch.vdot, torch.inner]:
        try:
            print(f(x, y))
        except RuntimeError as e:
            print("RuntimeError:", e)
    try:
        print(x.dot(y))
    except RuntimeError as e:
        print("RuntimeError:", e)
