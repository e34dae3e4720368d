import torch
import torch.nn.functional as F
# F.hardtanh with min_val above max_val is PyTorch's ValueError (it clamped); torch.gradient's spacing, dim and
# edge_order are keyword-only (a positional one is PyTorch's TypeError; it was taken).
x = torch.tensor([-2.0, -0.5, 0.25, 3.0], dtype=torch.float64, requires_grad=True)
for call in [lambda: F.hardtanh(x, 2.0), lambda: F.hardtanh(x, 0.5, -0.5), lambda: F.hardtanh(x, -0.5, 0.5),
             lambda: F.hardtanh(x, 0.5, 0.5), lambda: torch.gradient(x, 2.0), lambda: torch.gradient(x, spacing=2.0)]:
    try:
        print(call())
    except (TypeError, ValueError) as error:
        print(type(error).__name__, str(error).splitlines()[0] if isinstance(error, ValueError) else "")
