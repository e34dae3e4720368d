# torch.cov (and corrcoef) of bools and cdist of integers refused in PyTorch's words and order: cov's dims before its
# dtype, cdist's X1 before its X2, then the two dtypes against each other.
import torch
t = lambda *s, d=torch.float64: torch.zeros(s, dtype=d)
for f in [lambda: torch.cov(t(2, 3, d=torch.bool)), lambda: torch.corrcoef(t(2, 3, d=torch.bool)), lambda: torch.cov(t(2, 3, d=torch.int64)),
          lambda: torch.cov(t(2, 3, 4, d=torch.bool)),
          lambda: torch.cdist(t(2, 3), t(2, 3, d=torch.int64)), lambda: torch.cdist(t(2, 3, d=torch.int64), t(2, 3)),
          lambda: torch.cdist(t(2, 3, d=torch.bool), t(2, 3, d=torch.int64)), lambda: torch.cdist(t(2, 3, d=torch.float32), t(2, 3)),
          lambda: torch.cdist(t(2, 3), t(2, 3, d=torch.bool))]:
    try: r = f(); print("ok", r.dtype, list(r.shape))
    except Exception as e: print(type(e).__name__, e)
