# A list index holding a list, a tensor, a slice, None or ... (fewer than 32 items) is read as the tuple of its
# items, as PyTorch 2.13 reads it, with its deprecation warning on stderr: x[[[1, 0]]] is x[[1, 0]], m[[1, [0, 2]]]
# is m[1, [0, 2]]. A list of numbers stays one index. Values, shapes and gradients.
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
for label, f in (("x[[[1, 0]]]", lambda: x[[[1, 0]]]), ("x[[[1, 0], [2, 2]]]", lambda: x[[[1, 0], [2, 2]]]),
                 ("m[[[1, 0]]]", lambda: m[[[1, 0]]]), ("m[[[1, 0], [2, 2]]]", lambda: m[[[1, 0], [2, 2]]]),
                 ("m[[[1], [0]]]", lambda: m[[[1], [0]]]), ("m[[[1, 0]], 1]", lambda: m[[[1, 0]], 1]),
                 ("m[[1, [0, 2]]]", lambda: m[[1, [0, 2]]]), ("m[[[0, 1], [1, 2]]]", lambda: m[[[0, 1], [1, 2]]]),
                 ("x[[[[1]]]]", lambda: x[[[[1]]]])):
    try:
        out = f()
        print(label, out, out.shape)
        out.sum().backward()
        print("  ", x.grad, m.grad)
        x.grad = None; m.grad = None
    except Exception as e:
        print(label, type(e).__name__, e)
i = torch.tensor([1, 0])
for label, f in (("m[[i, 1]]", lambda: m[[i, 1]]),
                 ("m[[None, 1]]", lambda: m[[None, 1]]), ("m[[1, 0]]", lambda: m[[1, 0]]), ("x[[2, 0, 1]]", lambda: x[[2, 0, 1]])):
    out = f()
    print(label, out, out.shape)
