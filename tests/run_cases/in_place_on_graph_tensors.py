# Writes in place into tensors that have a graph, as PyTorch records them: the same tensor (its id) takes
# the op's node, its version counter moves (shared with its views), its views read it again, and a
# backward through a node that saved a tensor written since raises PyTorch's RuntimeError.
import torch
import torch.nn.functional as F


def attempt(label, make):
    x = torch.tensor([[0.5, -1.5], [2.0, 3.0]], dtype=torch.float64, requires_grad=True)
    try:
        out = make(x)
        out.sum().backward()
        print(label, "grad", x.grad.tolist())
    except RuntimeError as error:
        print(label, "RuntimeError:", error)


# out of place and in place give the same values and gradients; the tensor keeps its identity
def add_(x):
    y = x * 2
    alias = y
    y.add_(1)
    print("add_ alias", alias is y, y.grad_fn, alias.tolist())
    return y


def iadd(x):
    y = x * 2
    alias = y
    y += x
    print("+= alias", alias is y, y.grad_fn, y.grad_fn.next_functions)
    return y


def several(x):
    y = x * 1
    y.mul_(3).sub_(x).div_(2)
    y *= x
    y -= 1
    y /= 4
    print("several", y.grad_fn, y.tolist())
    return y


def relu_(x):
    y = x * 1
    z = y.relu_()
    print("relu_", z is y, y.grad_fn, y.grad_fn.next_functions)
    return y


def exp_then_use(x):
    y = x * 1
    y.exp_()
    return y * 2


def functional(x):
    y = x + 0
    z = F.relu(y, inplace=True)
    w = torch.relu_(x * 1)
    print("inplace=True", z is y, y.grad_fn, w.grad_fn)
    return z + w


def clamp_(x):
    y = x * 1
    y.clamp_(-1, 1)
    print("clamp_", y.grad_fn)
    return y


for label, make in [("add_", add_), ("+=", iadd), ("several", several), ("relu_", relu_), ("exp_", exp_then_use),
                    ("inplace", functional), ("clamp_", clamp_)]:
    attempt(label, make)


# a tensor a node saved, written in place since: PyTorch's error names it, its node and its versions
attempt("saved input", lambda x: (lambda y: (lambda h: (y.add_(1), h)[1])(y * y))(x * 1))
attempt("saved result", lambda x: (lambda y: (y.mul_(2), y)[1])(x.exp()))
attempt("saved result twice", lambda x: (lambda y: (y.add_(1), y.add_(1), y)[2])(x.sigmoid()))
attempt("not saved", lambda x: (lambda y: (lambda h: (y.add_(1), h)[1])(y + 3))(x * 1))
attempt("exp saves its result, not its input", lambda x: (lambda y: (lambda h: (y.add_(1), h * y)[1])(y.exp()))(x * 1))
attempt("written after its own node", lambda x: (lambda y: (y.exp_(), y.mul_(2), y)[2])(x * 1))
attempt("mul saves the other", lambda x: (lambda y, z: (lambda h: (z.add_(1), h)[1])(y * z))(x * 1, x * 3))


def setitem(x):
    y = x.tanh()
    y[0, 0] = 5.0
    return y


attempt("setitem", setitem)
attempt("saved 0-d", lambda x: (lambda s: (lambda h: (s.add_(1), h)[1])(s * s))(x.sum()))


def no_grad_write(x):
    h = x * x
    with torch.no_grad():
        x.mul_(2)
    return h


attempt("leaf written under no_grad", no_grad_write)


# views: a write through a view is CopySlices on its base and the view read again; a write into the base
# is seen by its views, and a gradient through a view flows through the write
def through_view(x):
    b = x * 1
    v = b[0]
    v.mul_(3)
    print("through view", v.grad_fn, b.grad_fn, b.tolist())
    return b


def into_base(x):
    b = x * 1
    v = b[1:]
    b.mul_(3)
    print("into base", v.grad_fn, v.tolist())
    return v


def setitem_seen(x):
    b = x * 2
    v = b[1]
    b[1] = x[0] * 7
    print("setitem seen", v.grad_fn, v.tolist())
    return v


def reshaped(x):
    b = x * 1
    y = b.view(4)
    y.relu_()
    print("view relu_", y.grad_fn, b.grad_fn)
    return b


def detached(x):
    b = x * 1
    d = b.detach()
    b.add_(1)
    print("detached", d.requires_grad, d.tolist())
    return b


for label, make in [("through view", through_view), ("into base", into_base), ("setitem seen", setitem_seen),
                    ("view relu_", reshaped), ("detached", detached)]:
    attempt(label, make)


# the parts of split, chunk and unbind are views PyTorch will not let a recorded write go into
for label, make in [("chunk", lambda t: t.chunk(2)), ("split", lambda t: t.split(1)),
                    ("split sizes", lambda t: t.split([1, 1])), ("unbind", lambda t: t.unbind(0)),
                    ("tensor_split", lambda t: t.tensor_split(2))]:
    attempt(label, lambda x: (lambda p: (p.mul_(2), p)[1])(make(x * 1)[1]))
    attempt(label + " of no grad", lambda x: (lambda p: (p.add_(x[0]), p)[1])(make(torch.zeros(2, 2, dtype=torch.float64))[1]))
    plain = torch.zeros(2, 2)
    make(plain)[1].add_(1)
    print(label, "writes its base", plain.tolist())


# a plain tensor that takes a value with a graph in place takes the graph
x = torch.tensor([1.0, 2.0], requires_grad=True)
plain = torch.ones(2)
plain.add_(x)
print("plain", plain.grad_fn, plain.is_leaf, plain.requires_grad)
plain.sum().backward()
print(x.grad)

# a shape the tensor cannot hold
try:
    (x * 1).add_(torch.ones(3, 2))
except RuntimeError as error:
    print("RuntimeError:", error)
