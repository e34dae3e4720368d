import torch
# torch.ones_like / zeros_like / full_like as PyTorch's parser binds them: one positional arg (two for full_like),
# dtype a torch.dtype, no keyword they do not have.
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
for call in [lambda: torch.ones_like(a, 0), lambda: torch.zeros_like(a, torch.float32), lambda: torch.ones_like(a, dtype=1),
             lambda: torch.zeros_like(a, bogus=1), lambda: torch.full_like(a, 2.0, 3),
             lambda: torch.ones_like(a, dtype=torch.int64), lambda: torch.zeros_like(a, requires_grad=True),
             lambda: torch.full_like(a, 2.5), lambda: torch.full_like(a, fill_value=-1)]:
    try:
        print(call())
    except TypeError as error:
        print("TypeError:", error)
