# cross_entropy and nll_loss of an (N, C, d1, ...) input, PyTorch's K-dimensional loss: the values, the gradients
# (float32 bits: log_softmax over dim 1 and nll_loss2d's cascade), the nodes, and the refusals in PyTorch's words
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def nodes(fn):
    names = []
    while fn is not None:
        names.append(type(fn).__name__)
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return names


w = torch.tensor([0.5, 2.0, 1.25])
for shape in [(2, 3, 4), (2, 3, 2, 2), (2, 3, 2, 1, 2), (3, 3, 5)]:
    x = (torch.randn(shape) * 2).requires_grad_()
    t = torch.randint(0, 3, (shape[0],) + shape[2:])
    for kw in [{}, {"reduction": "none"}, {"reduction": "sum"}, {"weight": w}, {"weight": w, "reduction": "none"},
               {"ignore_index": 1}, {"label_smoothing": 0.1}, {"label_smoothing": 0.2, "weight": w, "reduction": "sum"},
               {"label_smoothing": 0.3, "reduction": "none", "ignore_index": 0}]:
        for name in ("cross_entropy", "nll_loss"):
            if name == "nll_loss" and "label_smoothing" in kw:
                continue
            x.grad = None
            loss = F.cross_entropy(x, t, **kw) if name == "cross_entropy" else F.nll_loss(x, t, **kw)
            print(name, shape, sorted(kw), nodes(loss.grad_fn), loss.tolist())
            loss.backward(torch.ones_like(loss))
            print(x.grad.flatten().tolist())
    p = torch.rand(shape)
    p = p / p.sum(1, keepdim=True)
    for kw in [{}, {"reduction": "none"}, {"weight": w, "label_smoothing": 0.2}]:
        x.grad = None
        loss = F.cross_entropy(x, p, **kw)
        print("probabilities", shape, sorted(kw), nodes(loss.grad_fn), loss.tolist())
        loss.backward(torch.ones_like(loss))
        print(x.grad.flatten().tolist())

x = torch.randn(2, 4, 3, requires_grad=True)
loss = torch.nn.CrossEntropyLoss(reduction="none")(x.permute(0, 2, 1), torch.tensor([[0, 1, 2, 1], [2, 2, 0, 0]]))
print(loss, loss.grad_fn.next_functions)
print(torch.log_softmax(x, 1), torch.log_softmax(x, 0).sum(1))
print(F.cross_entropy(torch.randn(2, 3, 2), torch.full((2, 2), -100)))
print(F.cross_entropy(torch.randn(0, 3, 2), torch.zeros((0, 2), dtype=torch.long)))
print(F.cross_entropy(torch.randn(0, 3, 2), torch.zeros((0, 2), dtype=torch.long), reduction="sum"))
for make in [lambda: F.cross_entropy(x.permute(0, 2, 1), torch.zeros(2, 3, dtype=torch.long)),
             lambda: F.cross_entropy(x.permute(0, 2, 1), torch.zeros(2, 4, 1, dtype=torch.long)),
             lambda: F.cross_entropy(torch.randn(2, 3, 2, 2), torch.zeros(2, 2, 3, dtype=torch.long)),
             lambda: F.nll_loss(torch.randn(2, 3, 2, 2), torch.zeros(2, 2, dtype=torch.long)),
             lambda: F.cross_entropy(torch.randn(2, 3, 2), torch.zeros(2, dtype=torch.long)),
             lambda: F.cross_entropy(torch.randn(2, 3, 2), torch.zeros(2, 2, dtype=torch.long), weight=torch.ones(2)),
             lambda: F.cross_entropy(torch.randn(2, 3, 2), torch.full((2, 2), 3))]:
    try:
        make()
    except (RuntimeError, IndexError) as error:
        print(type(error).__name__, error)
