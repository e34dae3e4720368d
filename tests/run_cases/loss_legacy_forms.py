# Every loss of torch.nn.functional and torch.nn called in each way its Python signature allows: the legacy
# size_average and reduce by position and by keyword (a truthy string where a reduction was meant: 'sum' is
# size_average, so the mean), which override reduction; the tensors by keyword; and what PyTorch refuses (an arg too
# many, one missing, an unknown keyword, a string where a weight or eps goes). Values, node names and gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

p = torch.tensor([[0.2, 0.5, 0.7], [0.9, 0.4, 0.1]], dtype=torch.float64, requires_grad=True)
q = torch.tensor([[0.0, 1.0, 1.0], [1.0, 0.0, 0.3]], dtype=torch.float64, requires_grad=True)
s = torch.tensor([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]], dtype=torch.float64)
x = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]], dtype=torch.float64, requires_grad=True)
t = torch.tensor([2, 0])
v = torch.tensor([1.0, -1.0], dtype=torch.float64)
m = torch.tensor([[2, 0, -1], [1, -1, 0]])


def show(label, f):
    for leaf in (p, q, x):
        leaf.grad = None
    try:
        out = f()
    except Exception as e:
        print(label, type(e).__name__, e)
        return
    print(label, out)
    out.sum().backward()
    print("  grads", p.grad, q.grad, x.grad)


forms = [
    ("mse_loss(p, q, 'sum')", lambda: F.mse_loss(p, q, 'sum')),
    ("mse_loss(p, q, False)", lambda: F.mse_loss(p, q, False)),
    ("mse_loss(p, q, 'sum', 0)", lambda: F.mse_loss(p, q, 'sum', 0)),
    ("mse_loss(p, q, None, False)", lambda: F.mse_loss(p, q, None, False)),
    ("mse_loss(p, q, size_average=False, reduction='none')", lambda: F.mse_loss(p, q, size_average=False, reduction='none')),
    ("mse_loss(p, q, reduce=True, reduction='sum')", lambda: F.mse_loss(p, q, reduce=True, reduction='sum')),
    ("mse_loss(p, q, False, reduction='avg')", lambda: F.mse_loss(p, q, False, reduction='avg')),
    ("mse_loss(p, q, None, None, 'sum')", lambda: F.mse_loss(p, q, None, None, 'sum')),
    ("mse_loss(p, q, None, None, 'sum', None)", lambda: F.mse_loss(p, q, None, None, 'sum', None)),
    ("mse_loss(p, reduction='sum', target=q)", lambda: F.mse_loss(p, reduction='sum', target=q)),
    ("mse_loss(input=p, target=q)", lambda: F.mse_loss(input=p, target=q)),
    ("mse_loss(p, q, 1, 2, 3, None, 5)", lambda: F.mse_loss(p, q, 1, 2, 3, None, 5)),
    ("mse_loss(p)", lambda: F.mse_loss(p)),
    ("mse_loss(p, q, bogus=1)", lambda: F.mse_loss(p, q, bogus=1)),
    ("mse_loss(p, q, input=p)", lambda: F.mse_loss(p, q, input=p)),
    ("mse_loss(p, q, weight='sum')", lambda: F.mse_loss(p, q, weight='sum')),
    ("l1_loss(p, q, 'sum')", lambda: F.l1_loss(p, q, 'sum')),
    ("l1_loss(p, q, False)", lambda: F.l1_loss(p, q, False)),
    ("l1_loss(p, q, True, False)", lambda: F.l1_loss(p, q, True, False)),
    ("l1_loss(p, target=q, size_average=0)", lambda: F.l1_loss(p, target=q, size_average=0)),
    ("smooth_l1_loss(p, q, 'sum', 2)", lambda: F.smooth_l1_loss(p, q, 'sum', 2)),
    ("smooth_l1_loss(p, q, False, True, 'none', 0.5)", lambda: F.smooth_l1_loss(p, q, False, True, 'none', 0.5)),
    ("smooth_l1_loss(p, q, beta='x')", lambda: F.smooth_l1_loss(p, q, beta='x')),
    ("huber_loss(p, q, 'sum', 0.5)", lambda: F.huber_loss(p, q, 'sum', 0.5)),
    ("huber_loss(p, q, 'sum', 0.5, None, 1)", lambda: F.huber_loss(p, q, 'sum', 0.5, None, 1)),
    ("huber_loss(p, q, size_average=False)", lambda: F.huber_loss(p, q, size_average=False)),
    ("binary_cross_entropy(p, q, None, False)", lambda: F.binary_cross_entropy(p, q, None, False)),
    ("binary_cross_entropy(p, q, None, True, False)", lambda: F.binary_cross_entropy(p, q, None, True, False)),
    ("binary_cross_entropy(p, q, reduce=False, reduction='sum')", lambda: F.binary_cross_entropy(p, q, reduce=False, reduction='sum')),
    ("binary_cross_entropy(p, q, 'sum')", lambda: F.binary_cross_entropy(p, q, 'sum')),
    ("binary_cross_entropy(p, q, 2.0)", lambda: F.binary_cross_entropy(p, q, 2.0)),
    ("binary_cross_entropy_with_logits(x, q, None, False)", lambda: F.binary_cross_entropy_with_logits(x, q, None, False)),
    ("binary_cross_entropy_with_logits(x, q, None, None, False, 'sum')", lambda: F.binary_cross_entropy_with_logits(x, q, None, None, False, 'sum')),
    ("binary_cross_entropy_with_logits(x, q, None, None, None, 'sum', None)", lambda: F.binary_cross_entropy_with_logits(x, q, None, None, None, 'sum', None)),
    ("binary_cross_entropy_with_logits(x, q, s.abs(), False)", lambda: F.binary_cross_entropy_with_logits(x, q, s.abs(), False)),
    ("binary_cross_entropy_with_logits(x, q, None, None, None, 'sum', s.abs() * 2)", lambda: F.binary_cross_entropy_with_logits(x, q, None, None, None, 'sum', s.abs() * 2)),
    ("binary_cross_entropy_with_logits(x, q, s.abs(), False, pos_weight=s.abs() + 1)", lambda: F.binary_cross_entropy_with_logits(x, q, s.abs(), False, pos_weight=s.abs() + 1)),
    ("binary_cross_entropy_with_logits(x, q, 'sum')", lambda: F.binary_cross_entropy_with_logits(x, q, 'sum')),
    ("binary_cross_entropy_with_logits(x, q, None, None, None, 'mean', None, 1)", lambda: F.binary_cross_entropy_with_logits(x, q, None, None, None, 'mean', None, 1)),
    ("kl_div(x, p, 'sum', True)", lambda: F.kl_div(x, p, 'sum', True)),
    ("kl_div(x, p, False)", lambda: F.kl_div(x, p, False)),
    ("kl_div(x, p, reduce=False)", lambda: F.kl_div(x, p, reduce=False)),
    ("kl_div(x, p, None, None, 'batchmean', False)", lambda: F.kl_div(x, p, None, None, 'batchmean', False)),
    ("kl_div(x, x, False, None, 'sum', True)", lambda: F.kl_div(x, x, False, None, 'sum', True)),
    ("margin_ranking_loss(p, q, s, 0.5, 'sum')", lambda: F.margin_ranking_loss(p, q, s, 0.5, 'sum')),
    ("margin_ranking_loss(p, q, s, 0.5, False)", lambda: F.margin_ranking_loss(p, q, s, 0.5, False)),
    ("margin_ranking_loss(p, q, s, 0.0, None, False)", lambda: F.margin_ranking_loss(p, q, s, 0.0, None, False)),
    ("margin_ranking_loss(p, q, s, 'x')", lambda: F.margin_ranking_loss(p, q, s, 'x')),
    ("margin_ranking_loss(p)", lambda: F.margin_ranking_loss(p)),
    ("hinge_embedding_loss(x, s, 0.5, 'sum')", lambda: F.hinge_embedding_loss(x, s, 0.5, 'sum')),
    ("hinge_embedding_loss(x, s, 1.0, False)", lambda: F.hinge_embedding_loss(x, s, 1.0, False)),
    ("hinge_embedding_loss(x, s, 1.0, None, False)", lambda: F.hinge_embedding_loss(x, s, 1.0, None, False)),
    ("soft_margin_loss(x, s, 'sum')", lambda: F.soft_margin_loss(x, s, 'sum')),
    ("soft_margin_loss(x, s, False)", lambda: F.soft_margin_loss(x, s, False)),
    ("soft_margin_loss(x, s, reduce=False)", lambda: F.soft_margin_loss(x, s, reduce=False)),
    ("poisson_nll_loss(x, p, False, True, 0.5)", lambda: F.poisson_nll_loss(x.abs() + 0.5, p, False, True, 0.5)),
    ("poisson_nll_loss(x, p, True, False, False)", lambda: F.poisson_nll_loss(x, p, True, False, False)),
    ("poisson_nll_loss(x, p, True, True, None, 0.5, False)", lambda: F.poisson_nll_loss(x, p, True, True, None, 0.5, False)),
    ("poisson_nll_loss(x, p, True, False, None, 1e-8, None, 'sum')", lambda: F.poisson_nll_loss(x, p, True, False, None, 1e-8, None, 'sum')),
    ("poisson_nll_loss(x, p, True, False, 2, 'none')", lambda: F.poisson_nll_loss(x, p, True, False, 2, 'none')),
    ("gaussian_nll_loss(x, p, q + 1, False, 1e-6, 'sum')", lambda: F.gaussian_nll_loss(x, p, q + 1, False, 1e-6, 'sum')),
    ("gaussian_nll_loss(x, p, q + 1, False, 1e-6, 'sum', 1)", lambda: F.gaussian_nll_loss(x, p, q + 1, False, 1e-6, 'sum', 1)),
    ("gaussian_nll_loss(x, target=p, var=q + 1)", lambda: F.gaussian_nll_loss(x, target=p, var=q + 1)),
    ("gaussian_nll_loss(x, p, q + 1, size_average=False)", lambda: F.gaussian_nll_loss(x, p, q + 1, size_average=False)),
    ("cross_entropy(x, t, None, False)", lambda: F.cross_entropy(x, t, None, False)),
    ("cross_entropy(x, t, None, None, -100, False)", lambda: F.cross_entropy(x, t, None, None, -100, False)),
    ("cross_entropy(x, t, None, None, 0, None, 'sum', 0.1)", lambda: F.cross_entropy(x, t, None, None, 0, None, 'sum', 0.1)),
    ("cross_entropy(x, t, s[0].abs() + 1, False)", lambda: F.cross_entropy(x, t, s[0].abs() + 1, False)),
    ("cross_entropy(x, p.softmax(1), None, False)", lambda: F.cross_entropy(x, p.softmax(1), None, False)),
    ("cross_entropy(x, target=t, reduce=False)", lambda: F.cross_entropy(x, target=t, reduce=False)),
    ("cross_entropy(x)", lambda: F.cross_entropy(x)),
    ("cross_entropy(x, weight=s[0].abs() + 1, target=t)", lambda: F.cross_entropy(x, weight=s[0].abs() + 1, target=t)),
    ("cross_entropy(input=x, target=t, reduce=False)", lambda: F.cross_entropy(input=x, target=t, reduce=False)),
    ("cross_entropy(x, t, None, 1, 'none')", lambda: F.cross_entropy(x, t, None, 1, 'none')),
    ("cross_entropy(x, t, ignore_index=True)", lambda: F.cross_entropy(x, t, ignore_index=True)),
    ("cross_entropy(x, t, label_smoothing='a')", lambda: F.cross_entropy(x, t, label_smoothing='a')),
    ("cross_entropy(x, t, None, None, 1)", lambda: F.cross_entropy(x, t, None, None, 1)),
    ("nll_loss(x, t, None, False)", lambda: F.nll_loss(x, t, None, False)),
    ("nll_loss(x, t, None, True, -100, False)", lambda: F.nll_loss(x, t, None, True, -100, False)),
    ("nll_loss(x, t, None, None, -100, None, 'mean', 1)", lambda: F.nll_loss(x, t, None, None, -100, None, 'mean', 1)),
    ("nll_loss(x, t, None, None, 0.5)", lambda: F.nll_loss(x, t, None, None, 0.5)),
    ("nll_loss(x, target=t, weight=s[0].abs() + 1)", lambda: F.nll_loss(x, target=t, weight=s[0].abs() + 1)),
    ("nll_loss(x, weight=s[0].abs() + 1, target=t, size_average=False)", lambda: F.nll_loss(x, weight=s[0].abs() + 1, target=t, size_average=False)),
    ("nll_loss(x)", lambda: F.nll_loss(x)),
    ("nll_loss(x, t, ignore_index=None)", lambda: F.nll_loss(x, t, ignore_index=None)),
    ("multilabel_soft_margin_loss(x, q, None, False)", lambda: F.multilabel_soft_margin_loss(x, q, None, False)),
    ("multilabel_soft_margin_loss(x, q, s[0].abs(), None, False)", lambda: F.multilabel_soft_margin_loss(x, q, s[0].abs(), None, False)),
    ("multilabel_soft_margin_loss(x, q, reduce=False)", lambda: F.multilabel_soft_margin_loss(x, q, reduce=False)),
    ("multilabel_soft_margin_loss(x, q, bogus=1)", lambda: F.multilabel_soft_margin_loss(x, q, bogus=1)),
    ("multilabel_soft_margin_loss(x)", lambda: F.multilabel_soft_margin_loss(x)),
    ("multi_margin_loss(x, t, 1, 1.0, None, False)", lambda: F.multi_margin_loss(x, t, 1, 1.0, None, False)),
    ("multi_margin_loss(x, t, 2, 0.5, None, None, False)", lambda: F.multi_margin_loss(x, t, 2, 0.5, None, None, False)),
    ("multi_margin_loss(x, t, 1, 1.0, 'sum')", lambda: F.multi_margin_loss(x, t, 1, 1.0, 'sum')),
    ("multilabel_margin_loss(x, m, False)", lambda: F.multilabel_margin_loss(x, m, False)),
    ("multilabel_margin_loss(x, m, 'sum', False)", lambda: F.multilabel_margin_loss(x, m, 'sum', False)),
    ("cosine_embedding_loss(p, q, v, 0.5, 'sum')", lambda: F.cosine_embedding_loss(p, q, v, 0.5, 'sum')),
    ("cosine_embedding_loss(p, q, v, 0.0, False)", lambda: F.cosine_embedding_loss(p, q, v, 0.0, False)),
    ("cosine_embedding_loss(p, q, v, 0.0, None, False)", lambda: F.cosine_embedding_loss(p, q, v, 0.0, None, False)),
    ("triplet_margin_loss(p, q, x, 1.0, 2, 1e-6, False, 'sum')", lambda: F.triplet_margin_loss(p, q, x, 1.0, 2, 1e-6, False, 'sum')),
    ("triplet_margin_loss(p, q, x, 1.0, 2, 1e-6, True, False)", lambda: F.triplet_margin_loss(p, q, x, 1.0, 2, 1e-6, True, False)),
    ("triplet_margin_loss(p, q, x, 1.0, 2, 1e-6, False, None, False)", lambda: F.triplet_margin_loss(p, q, x, 1.0, 2, 1e-6, False, None, False)),
    ("triplet_margin_loss(p, q, x, 1.0, 2, 1e-6, False, True, False, 'sum', 9)", lambda: F.triplet_margin_loss(p, q, x, 1.0, 2, 1e-6, False, True, False, 'sum', 9)),
    # torch.NAME: ATen's functions, their reduction an int and none by default
    ("torch.kl_div(x, p)", lambda: torch.kl_div(x, p)),
    ("torch.kl_div(x, x, log_target=True)", lambda: torch.kl_div(x, x, log_target=True)),
    ("torch.margin_ranking_loss(p, q, s, 0.5)", lambda: torch.margin_ranking_loss(p, q, s, 0.5)),
    ("torch.hinge_embedding_loss(x, s, 0.5)", lambda: torch.hinge_embedding_loss(x, s, 0.5)),
    ("torch.cosine_embedding_loss(p, q, v, 0.5)", lambda: torch.cosine_embedding_loss(p, q, v, 0.5)),
    ("torch.triplet_margin_loss(p, q, x, 1.0, 1.0, 1e-6, True)", lambda: torch.triplet_margin_loss(p, q, x, 1.0, 1.0, 1e-6, True)),
    ("torch.binary_cross_entropy_with_logits(x, q, s.abs(), s.abs() + 1)", lambda: torch.binary_cross_entropy_with_logits(x, q, s.abs(), s.abs() + 1)),
    ("torch.binary_cross_entropy_with_logits(x, q, None, s.abs() + 1)", lambda: torch.binary_cross_entropy_with_logits(x, q, None, s.abs() + 1)),
    ("torch.binary_cross_entropy_with_logits(x, q)", lambda: torch.binary_cross_entropy_with_logits(x, q)),
    ("torch.poisson_nll_loss(x, p, True, False)", lambda: torch.poisson_nll_loss(x, p, True, False)),
]
for label, f in forms:
    show(label, f)

# the modules: size_average and reduce in their constructors make the reduction, which they keep
modules = [
    ("MSELoss(False)", nn.MSELoss(False), (p, q)),
    ("MSELoss(size_average=False)", nn.MSELoss(size_average=False), (p, q)),
    ("MSELoss(reduce=False, reduction='sum')", nn.MSELoss(reduce=False, reduction='sum'), (p, q)),
    ("L1Loss(None, False)", nn.L1Loss(None, False), (p, q)),
    ("SmoothL1Loss(False, None, 'mean', 0.5)", nn.SmoothL1Loss(False, None, 'mean', 0.5), (p, q)),
    ("BCELoss(None, False)", nn.BCELoss(None, False), (p, q)),
    ("BCEWithLogitsLoss(None, True, False)", nn.BCEWithLogitsLoss(None, True, False), (x, q)),
    ("KLDivLoss(False)", nn.KLDivLoss(False), (x, p)),
    ("MarginRankingLoss(0.5, False)", nn.MarginRankingLoss(0.5, False), (p, q, s)),
    ("HingeEmbeddingLoss(1.0, None, False)", nn.HingeEmbeddingLoss(1.0, None, False), (x, s)),
    ("SoftMarginLoss(False)", nn.SoftMarginLoss(False), (x, s)),
    ("CosineEmbeddingLoss(0.0, False)", nn.CosineEmbeddingLoss(0.0, False), (p, q, v)),
    ("TripletMarginLoss(1.0, 2.0, 1e-6, False, False)", nn.TripletMarginLoss(1.0, 2.0, 1e-6, False, False), (p, q, x)),
    ("PoissonNLLLoss(True, False, False)", nn.PoissonNLLLoss(True, False, False), (x, p)),
    ("PoissonNLLLoss(reduce=False)", nn.PoissonNLLLoss(reduce=False), (x, p)),
    ("CrossEntropyLoss(None, None, -100, False)", nn.CrossEntropyLoss(None, None, -100, False), (x, t)),
    ("CrossEntropyLoss(size_average=False)", nn.CrossEntropyLoss(size_average=False), (x, t)),
    ("NLLLoss(None, False)", nn.NLLLoss(None, False), (x, t)),
    ("MultiLabelSoftMarginLoss(None, False)", nn.MultiLabelSoftMarginLoss(None, False), (x, q)),
    ("MultiMarginLoss(2, 0.5, None, False)", nn.MultiMarginLoss(2, 0.5, None, False), (x, t)),
    ("MultiMarginLoss()", nn.MultiMarginLoss(), (x, t)),
    ("MultiLabelMarginLoss(reduce=False)", nn.MultiLabelMarginLoss(reduce=False), (x, m)),
    ("MultiLabelMarginLoss()", nn.MultiLabelMarginLoss(), (x, m)),
]
for label, module, args in modules:
    print(label, module, module.reduction)
    show("  " + label, lambda module=module, args=args: module(*args))
try:
    nn.MSELoss(False, None, 'mean', 1)
except TypeError as e:
    print("TypeError", e)
