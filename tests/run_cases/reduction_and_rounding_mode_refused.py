# reduction= and rounding_mode= values PyTorch refuses: its exception and words ('avg is not a valid value for reduction',
# gaussian_nll_loss's 'avg is not valid', div's RuntimeError), where gradcli said it lacked them (exit 2)
import torch, torch.nn.functional as F
def attempt(name, f):
    try:
        f()
        print(name, "OK")
    except Exception as e:
        print(name, type(e).__name__, e)
x = torch.tensor([[0.5, 0.2], [0.1, 0.9]], requires_grad=True)
y = torch.tensor([[1., 0.], [0., 1.]])
attempt("kl", lambda: F.kl_div(x, y, reduction='avg'))
attempt("bce", lambda: F.binary_cross_entropy(x, y, reduction='avg'))
attempt("huber", lambda: F.huber_loss(x, y, reduction='avg'))
attempt("mse module", lambda: torch.nn.MSELoss(reduction='avg')(x, y))
attempt("l1", lambda: F.l1_loss(x, y, reduction='avg'))
attempt("ce", lambda: F.cross_entropy(x, torch.tensor([0, 1]), reduction='avg'))
attempt("ce module", lambda: torch.nn.CrossEntropyLoss(reduction='avg')(x, torch.tensor([0, 1])))
attempt("nll", lambda: F.nll_loss(x, torch.tensor([0, 1]), reduction='avg'))
attempt("gnll", lambda: F.gaussian_nll_loss(x, y, torch.ones(2, 2), reduction='avg'))
attempt("poisson", lambda: F.poisson_nll_loss(x, y, reduction='avg'))
attempt("mse None", lambda: F.mse_loss(x, y, reduction=None))
attempt("div", lambda: torch.div(x, 2, rounding_mode='round'))
attempt("div method", lambda: x.div(2, rounding_mode='Floor'))
attempt("divide", lambda: torch.divide(x, y, rounding_mode='round'))
attempt("div ok", lambda: print(torch.div(x, 2, rounding_mode='floor')))
