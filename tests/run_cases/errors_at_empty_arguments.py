# What PyTorch says when an argument is empty or of the wrong rank (issue #21's special points): the class
# weights of the losses, linear's products (at::linear's t(), addmm and matmul), native batch norm's input and
# running statistics, instance norm of empty inputs and of one running statistic, bilinear's weight of the wrong
# rank, interpolate's size of the wrong length (as written: a tuple or a list). Each call's exception type and
# words, or its value.
import torch
import torch.nn.functional as F

x = torch.tensor([[-1.5, 0.25, 1.0], [0.5, 2.0, -1.0]], dtype=torch.float64, requires_grad=True)
t = torch.tensor([1, 2])
p = torch.tensor([[0.25, 0.5, 0.25], [0.0, 0.5, 0.5]], dtype=torch.float64)
w = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, 0.5], [0.25, 0.5, -0.5], [1.5, 1.0, 0.0]], dtype=torch.float64,
                 requires_grad=True)
bias = torch.tensor([0.5, -0.5, 1.0, 0.0], dtype=torch.float64, requires_grad=True)
e0 = torch.zeros(0, dtype=torch.float64)
e03 = torch.zeros(0, 3, dtype=torch.float64)
e2 = torch.ones(2, dtype=torch.float64)
m = torch.tensor([[1.0, -2.0], [0.5, 3.0], [2.0, 1.0]], dtype=torch.float64, requires_grad=True)
g, h = torch.ones(2, dtype=torch.float64, requires_grad=True), torch.zeros(2, dtype=torch.float64, requires_grad=True)
rm, rv = torch.zeros(2, dtype=torch.float64), torch.ones(2, dtype=torch.float64)


def show(label, f):
    try:
        out = f()
    except Exception as e:
        print(label, type(e).__name__, e)
        return
    print(label, out)


calls = [
    ("nll_loss weight (0,)", lambda: F.nll_loss(x, t, weight=e0)),
    ("nll_loss weight (0, 3)", lambda: F.nll_loss(x, t, weight=e03)),
    ("nll_loss weight (2,)", lambda: F.nll_loss(x, t, weight=e2)),
    ("nll_loss 1-D weight (0,)", lambda: F.nll_loss(x[0], t[0], weight=e0)),
    ("nll_loss 3-D weight (0,)", lambda: F.nll_loss(x.reshape(1, 3, 2), t.reshape(1, 2), weight=e0)),
    ("cross_entropy weight (0,)", lambda: F.cross_entropy(x, t, weight=e0)),
    ("cross_entropy weight (0, 3)", lambda: F.cross_entropy(x, t, weight=e03)),
    ("cross_entropy smoothed weight (0,)", lambda: F.cross_entropy(x, t, weight=e0, label_smoothing=0.2)),
    ("cross_entropy smoothed weight (2,)", lambda: F.cross_entropy(x, t, weight=e2, reduction='none',
                                                                   label_smoothing=0.2)),
    ("cross_entropy probs weight (0,)", lambda: F.cross_entropy(x, p, weight=e0)),
    ("cross_entropy probs weight (0, 3)", lambda: F.cross_entropy(x, p, weight=e03)),
    ("cross_entropy probs weight (2,)", lambda: F.cross_entropy(x, p, weight=e2)),
    ("cross_entropy probs 1-D weight (2,)", lambda: F.cross_entropy(x[0], p[0], weight=e2)),
    ("cross_entropy probs 3-D weight (0,)", lambda: F.cross_entropy(x.reshape(1, 3, 2), p.reshape(1, 3, 2),
                                                                    weight=e0)),
    ("linear_cross_entropy weight (0,)", lambda: F.linear_cross_entropy(m.T, w, t, linear_bias=bias, weight=e0)),
    ("linear_cross_entropy weight (0, 3)", lambda: F.linear_cross_entropy(m.T, w, t, weight=e03)),
    ("linear input (0,)", lambda: F.linear(torch.zeros(0, dtype=torch.float64), w, bias)),
    ("linear input (0,) no bias", lambda: F.linear(torch.zeros(0, dtype=torch.float64), w)),
    ("linear weight (0,)", lambda: F.linear(x, e0, bias)),
    ("linear weight (0,) no bias", lambda: F.linear(x, e0)),
    ("linear weight (0, 3)", lambda: F.linear(x, e03, bias)),
    ("linear input (2,) weight (3,)", lambda: F.linear(x[0, :2], x[0])),
    ("linear weight (3,)", lambda: F.linear(x, x[0])),
    ("linear input (3,) weight (3,) bias ()", lambda: F.linear(x[1], x[0], bias[0])),
    ("linear input (3,) weight (3,) bias (1,)", lambda: F.linear(x[1], x[0], bias[:1])),
    ("linear input (1, 2, 3) weight (3,) bias (1,)", lambda: F.linear(x.reshape(1, 2, 3), x[0], bias[:1])),
    ("linear input (1, 2, 3) weight (3,) bias ()", lambda: F.linear(x.reshape(1, 2, 3), x[0], bias[0])),
    ("linear input (2, 2, 3) weight (4, 2)", lambda: F.linear(torch.ones(2, 2, 3, dtype=torch.float64), w[:, :2])),
    ("linear input (2, 3) weight (4, 2) bias", lambda: F.linear(x, w[:, :2], bias)),
    ("linear input () weight (4, 3)", lambda: F.linear(x[0, 0], w, bias)),
    ("linear weight (4, 3, 1)", lambda: F.linear(x, w.reshape(4, 3, 1), bias)),
    ("linear bias (3,)", lambda: F.linear(x, w, bias[:3])),
    ("instance_norm empty batch", lambda: F.instance_norm(torch.zeros(0, 3, 2, dtype=torch.float64))),
    ("instance_norm empty channels", lambda: F.instance_norm(torch.zeros(2, 0, 2, dtype=torch.float64))),
    ("instance_norm empty batch, weight", lambda: F.instance_norm(torch.zeros(0, 3, 2, dtype=torch.float64),
                                                                  weight=torch.ones(3, dtype=torch.float64))),
    ("instance_norm empty batch, statistics", lambda: F.instance_norm(
        torch.zeros(0, 3, 2, dtype=torch.float64), torch.zeros(3, dtype=torch.float64),
        torch.ones(3, dtype=torch.float64), use_input_stats=False)),
    ("instance_norm running_mean alone", lambda: F.instance_norm(torch.ones(2, 3, 2, dtype=torch.float64),
                                                                 torch.zeros(3, dtype=torch.float64))),
    ("instance_norm running_var alone", lambda: F.instance_norm(torch.ones(2, 3, 2, dtype=torch.float64), None,
                                                                torch.ones(3, dtype=torch.float64))),
    ("instance_norm running_mean alone, eval", lambda: F.instance_norm(
        torch.ones(2, 3, 2, dtype=torch.float64), torch.zeros(3, dtype=torch.float64), use_input_stats=False)),
    ("bilinear weight ()", lambda: F.bilinear(m, m, torch.tensor(1.0, dtype=torch.float64))),
    ("bilinear weight (0,)", lambda: F.bilinear(m, m, e0)),
    ("bilinear weight (0, 3)", lambda: F.bilinear(m, m, e03)),
    ("bilinear weight (3, 2)", lambda: F.bilinear(m, m, torch.ones(3, 2, dtype=torch.float64))),
    ("bilinear weight (1, 2, 2, 1)", lambda: F.bilinear(m, m, torch.ones(1, 2, 2, 1, dtype=torch.float64))),
    ("bilinear weight (2, 2, 2)", lambda: F.bilinear(m, m, torch.ones(2, 2, 2, dtype=torch.float64))),
    ("unfold input (0,)", lambda: F.unfold(e0, 2)),
    ("interpolate input (0,)", lambda: F.interpolate(e0, size=(5,))),
    ("interpolate input (0,), a list", lambda: F.interpolate(e0, size=[5])),
    ("interpolate input (0, 3)", lambda: F.interpolate(e03, size=(5,))),
    ("interpolate input (1, 2, 3), a list", lambda: F.interpolate(m.reshape(1, 2, 3), size=[2, 5])),
    ("upsample_bilinear input (0, 3)", lambda: F.upsample_bilinear(e03, size=(4, 3))),
    ("native_batch_norm input (0,)", lambda: torch.native_batch_norm(torch.zeros(0, dtype=torch.float64), g, h, rm,
                                                                     rv, True, 0.1, 1e-5)[0]),
    ("_native_batch_norm_legit input (0,)", lambda: torch._native_batch_norm_legit(
        torch.zeros(0, dtype=torch.float64), g, h, rm, rv, True, 0.1, 1e-5)[0]),
]
for label, f in calls:
    show(label, f)

# native_batch_norm reads an empty bias as none, keeps its edge, and its backward refuses a gradient into it; its
# running statistics are vectors, updated in training
a = torch.tensor([[1.0, -2.0], [0.5, 3.0], [2.0, 1.0]], dtype=torch.float64, requires_grad=True)
seed = torch.tensor([[1.0, -2.0], [0.5, 3.0], [0.25, 1.0]], dtype=torch.float64)
for native in (torch.native_batch_norm, torch._native_batch_norm_legit):
    for shape in [(0,), (0, 3)]:
        for training in (True, False):
            for grad in (True, False):
                c = torch.zeros(shape, dtype=torch.float64, requires_grad=grad)
                rm, rv = torch.tensor([0.25, -0.5], dtype=torch.float64), torch.tensor([1.5, 0.5], dtype=torch.float64)
                out = native(a, g, c, rm, rv, training, 0.1, 1e-5)
                print(shape, training, grad, out[0], out[1], out[2], rm, rv)
                print(out[0].grad_fn, out[0].grad_fn.next_functions)
                a.grad, g.grad = None, None
                try:
                    (out[0] * seed).sum().backward()
                    print(a.grad, g.grad, c.grad)
                except RuntimeError as e:
                    print("RuntimeError", e)
    for stat in [(0, 3), (2, 1), (1, 2)]:
        for training in (True, False):
            show(f"running_mean {stat} {training}", lambda: native(a, g, h, torch.zeros(stat, dtype=torch.float64), rv,
                                                                   training, 0.1, 1e-5))
            show(f"running_var {stat} {training}", lambda: native(a, g, h, rm, torch.ones(stat, dtype=torch.float64),
                                                                  training, 0.1, 1e-5))
    for shape in [(3,), (2,)]:
        for training in (True, False):
            show(f"input {shape} {training}", lambda: native(torch.ones(shape, dtype=torch.float64), g, h, rm, rv,
                                                             training, 0.1, 1e-5))
    show("input (0,) True", lambda: native(torch.zeros(0, dtype=torch.float64), g, h, rm, rv, True, 0.1, 1e-5))
