import torch
# quantile's q out of [0, 1] (issue #21): PyTorch's RuntimeError, its q printed as C++ prints a double, and
# nanquantile's words are quantile's.
a = torch.tensor([[1.0, 2.0, 4.0], [3.0, -3.0, 6.0]], dtype=torch.float64, requires_grad=True)
calls = [
    lambda: torch.quantile(a, 2),
    lambda: torch.nanquantile(a, 2),
    lambda: a.quantile(2, 1),
    lambda: torch.quantile(a, 1.2345678),
    lambda: torch.nanquantile(a, -0.5, 0),
    lambda: torch.quantile(a, 1e10),
    lambda: torch.quantile(a, 0.5, 1),
]
for call in calls:
    try:
        print(call())
    except RuntimeError as error:
        print("RuntimeError:", error)
