# The losses' reduction='elementwise_mean' (torch.nn._reduction.get_enum's deprecated alias of 'mean': its warning on
# stderr, the mean), the losses that check their reduction in Python first and refuse it (poisson_nll_loss,
# gaussian_nll_loss, multilabel_soft_margin_loss in their own words), 'batchmean' where only kl_div takes it, and
# F.kl_div's 'mean' (its default), which warns that it is not 'batchmean'. Values and node names.
import torch
import torch.nn.functional as F
p = torch.tensor([[0.2, 0.5, 0.7], [0.9, 0.4, 0.1]], dtype=torch.float64, requires_grad=True)
q = torch.tensor([[0.0, 1.0, 1.0], [1.0, 0.0, 0.3]], dtype=torch.float64)
s = torch.tensor([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]], dtype=torch.float64)
t = torch.tensor([2, 0])
v = torch.tensor([1.0, -1.0], dtype=torch.float64)
m = torch.tensor([[2, 0, -1], [1, -1, 0]])
calls = [
    ("mse_loss", lambda r: F.mse_loss(p, q, reduction=r)),
    ("l1_loss", lambda r: F.l1_loss(p, q, reduction=r)),
    ("smooth_l1_loss", lambda r: F.smooth_l1_loss(p, q, reduction=r)),
    ("huber_loss", lambda r: F.huber_loss(p, q, reduction=r)),
    ("binary_cross_entropy", lambda r: F.binary_cross_entropy(p, q, reduction=r)),
    ("binary_cross_entropy_with_logits", lambda r: F.binary_cross_entropy_with_logits(p, q, reduction=r)),
    ("kl_div", lambda r: F.kl_div(p, q, reduction=r)),
    ("margin_ranking_loss", lambda r: F.margin_ranking_loss(p, q, s, reduction=r)),
    ("hinge_embedding_loss", lambda r: F.hinge_embedding_loss(p, s, reduction=r)),
    ("soft_margin_loss", lambda r: F.soft_margin_loss(p, s, reduction=r)),
    ("poisson_nll_loss", lambda r: F.poisson_nll_loss(p, q, reduction=r)),
    ("gaussian_nll_loss", lambda r: F.gaussian_nll_loss(p, q, q + 1, reduction=r)),
    ("cross_entropy", lambda r: F.cross_entropy(p, t, reduction=r)),
    ("cross_entropy probs", lambda r: F.cross_entropy(p, q, reduction=r)),
    ("nll_loss", lambda r: F.nll_loss(p, t, reduction=r)),
    ("multilabel_soft_margin_loss", lambda r: F.multilabel_soft_margin_loss(p, q, reduction=r)),
    ("multi_margin_loss", lambda r: F.multi_margin_loss(p, t, reduction=r)),
    ("multilabel_margin_loss", lambda r: F.multilabel_margin_loss(p, m, reduction=r)),
    ("cosine_embedding_loss", lambda r: F.cosine_embedding_loss(p, q, v, reduction=r)),
    ("triplet_margin_loss", lambda r: F.triplet_margin_loss(p, q, s, reduction=r)),
    ("l1 module", lambda r: torch.nn.L1Loss(reduction=r)(p, q)),
    ("kl module", lambda r: torch.nn.KLDivLoss(reduction=r)(p, q)),
    ("ce module", lambda r: torch.nn.CrossEntropyLoss(reduction=r)(p, t)),
]
for label, f in calls:
    for r in ("elementwise_mean", "mean", "batchmean"):
        try:
            print(label, r, f(r))
        except Exception as e:
            print(label, r, type(e).__name__, e)
x = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]], dtype=torch.float64, requires_grad=True)
for form in (lambda: F.kl_div(x, q), lambda: F.kl_div(x, q, reduction='mean'), lambda: F.kl_div(x, q, None, None, 'mean'),
             lambda: F.kl_div(x, q, False), lambda: F.kl_div(x[0, 0], q[0, 0], reduction='batchmean'),
             lambda: torch.kl_div(x, q), lambda: torch.nn.KLDivLoss()(x, q), lambda: torch.nn.MSELoss(False)(x, q)):
    out = form()
    x.grad = None
    out.sum().backward()
    print(out, x.grad)
