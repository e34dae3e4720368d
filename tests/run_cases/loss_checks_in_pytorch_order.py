# cross_entropy's and nll_loss's checks in PyTorch's order: label smoothing, the batch sizes, the target's rank,
# its dtype, then the weight's shape and its dtype; a weight that is no tensor (a number, a string, a list) is
# the argument parser's TypeError. Each call's exception type and words, or its value.
import torch
import torch.nn.functional as F

x = torch.tensor([[-1.5, 0.25, 1.0], [0.5, 2.0, -1.0]], dtype=torch.float64, requires_grad=True)
targets = {"float (2,)": torch.tensor([1.0, 0.0], dtype=torch.float64),
           "float (3,)": torch.tensor([1.0, 0.0, 2.0], dtype=torch.float64),
           "long (2,)": torch.tensor([1, 0]), "long (3,)": torch.tensor([1, 0, 2]),
           "long (2, 2)": torch.tensor([[1, 0], [0, 1]]), "float (2, 2)": torch.zeros(2, 2, dtype=torch.float64)}
weights = {"long (3,)": torch.tensor([1, 1, 1]), "long (2,)": torch.tensor([1, 1]),
           "float (2,)": torch.ones(2, dtype=torch.float64), "float (3,)": torch.tensor([1.0, 2.0, 0.5],
                                                                                         dtype=torch.float64)}


def show(label, f):
    try:
        out = f()
    except Exception as e:
        print(label, type(e).__name__, e)
        return
    print(label, out)


for name, loss in (("nll_loss", F.nll_loss), ("cross_entropy", F.cross_entropy)):
    for tn, t in targets.items():
        for wn, w in weights.items():
            show(f"{name} target {tn} weight {wn}", lambda: loss(x, t, w))
    for weight in ("abc", 2.0, 2, True, [1.0, 2.0, 3.0]):
        show(f"{name} weight {weight!r}", lambda: loss(x, targets["long (2,)"], weight))
        show(f"{name} weight={weight!r}", lambda: loss(x, targets["long (2,)"], weight=weight))
    show(f"{name} 1-D input, float target (2,)", lambda: loss(x[0], targets["float (2,)"]))
    show(f"{name} 1-D input, long target (2,)", lambda: loss(x[0], targets["long (2,)"]))
    x4 = torch.linspace(-1.0, 1.0, 24, dtype=torch.float64).reshape(2, 3, 2, 2)
    show(f"{name} 4-D, float target", lambda: loss(x4, torch.zeros(2, 2, 2, dtype=torch.float64), weights["float (2,)"]))
    show(f"{name} 4-D, batch", lambda: loss(x4, torch.zeros(3, 2, 2, dtype=torch.long)))
    show(f"{name} 4-D, long weight", lambda: loss(x4, torch.zeros(2, 2, 2, dtype=torch.long), weights["long (3,)"]))
    show(f"{name} 4-D, weight (2,)", lambda: loss(x4, torch.zeros(2, 2, 2, dtype=torch.long), weights["float (2,)"]))
    x3 = x4.reshape(2, 3, 4)
    show(f"{name} 3-D, long weight", lambda: loss(x3, torch.zeros(2, 4, dtype=torch.long), weights["long (3,)"]))
    show(f"{name} 3-D, float target", lambda: loss(x3, torch.zeros(2, 4, dtype=torch.float64), weights["long (2,)"]))
    show(f"{name} 3-D, target size", lambda: loss(x3, torch.zeros(2, 3, dtype=torch.long), weights["long (2,)"]))
show("cross_entropy smoothing 2, batch", lambda: F.cross_entropy(x, targets["long (3,)"], weights["long (2,)"],
                                                                  label_smoothing=2))
show("cross_entropy smoothing 0.2, batch", lambda: F.cross_entropy(x, targets["long (3,)"], weights["long (2,)"],
                                                                    label_smoothing=0.2))
show("cross_entropy smoothing 0.2, weight (2,)", lambda: F.cross_entropy(x, targets["long (2,)"], weights["float (2,)"],
                                                                          label_smoothing=0.2))
show("cross_entropy smoothing 0.2, long weight", lambda: F.cross_entropy(x, targets["long (2,)"], weights["long (3,)"],
                                                                          label_smoothing=0.2))
show("cross_entropy smoothing 0.2, float target", lambda: F.cross_entropy(x, targets["float (2,)"], weights["long (2,)"],
                                                                           label_smoothing=0.2))

# a weight that takes a gradient: refused before the target's rank and dtype are read
wg = torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64, requires_grad=True)
for name, loss in (("nll_loss", F.nll_loss), ("cross_entropy", F.cross_entropy)):
    for tn in ("float (2, 2)", "long (2, 2)", "long (2,)", "float (2,)", "long (3,)"):
        show(f"{name} weight requiring grad, target {tn}", lambda: loss(x, targets[tn], wg))
    show(f"{name} empty input, weight requiring grad", lambda: loss(torch.zeros(0, dtype=torch.float64),
                                                                     torch.ones(2, 3, dtype=torch.float64), wg))
    show(f"{name} empty input", lambda: loss(torch.zeros(0, dtype=torch.float64), torch.ones(2, 3, dtype=torch.float64)))
