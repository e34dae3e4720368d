import torch
# A 0-d bool among other index items (a Python bool or a 0-d bool tensor): PyTorch's applySlicing adds a new axis
# there and indexes it with [0] (True) or [] (False): IndexBackward0, reads and writes (issue #21). An int's
# out-of-range IndexError names its place in the key as written (real_dim)
x = torch.arange(6.0, dtype=torch.float64).reshape(2, 3).requires_grad_()
for name, f in (("T,0", lambda: x[torch.tensor(True), 0]), ("1,F", lambda: x[1, torch.tensor(False)]),
                ("T", lambda: x[torch.tensor(True)]), ("F", lambda: x[torch.tensor(False)]),
                (":,T,1", lambda: x[:, torch.tensor(True), 1]), ("T,[0,1]", lambda: x[torch.tensor(True), [0, 1]]),
                ("T,None,0", lambda: x[torch.tensor(True), None, 0]), ("F,...", lambda: x[torch.tensor(False), ...]),
                ("T,idx", lambda: x[torch.tensor(True), torch.tensor([1, 0])]), ("0,T", lambda: x[0, torch.tensor(True)]),
                ("True", lambda: x[True]), ("False,0", lambda: x[False, 0]), ("1,True", lambda: x[1, True]),
                ("T,mask", lambda: x[torch.tensor(True), torch.tensor([[True, False, True], [False, False, True]])])):
    y = f()
    print(name, y, y.shape, y.grad_fn)  # (its next_functions: PyTorch's Unsqueeze/Select view first; gradcli's one node)
    if y.numel():
        (y * torch.arange(1.0, y.numel() + 1, dtype=torch.float64).reshape(y.shape)).sum().backward()
    print(x.grad)
    x.grad = None
for f in (lambda: x[True, torch.tensor(True), 2], lambda: x[None, 5], lambda: x[0, True, 7], lambda: x[..., 9],
          lambda: x[torch.tensor(False), 9], lambda: x[torch.tensor([True, False]), 7]):
    try:
        print(f())
    except IndexError as error:
        print("IndexError", error)
w = torch.arange(6.0, dtype=torch.float64).reshape(2, 3).requires_grad_()
for name, key in (("T,0", (torch.tensor(True), 0)), ("1,F", (1, torch.tensor(False))), ("T", torch.tensor(True)),
                  (":,T,1", (slice(None), torch.tensor(True), 1)), ("T,[1,0]", (torch.tensor(True), [1, 0])),
                  ("True,0", (True, 0)), ("F", torch.tensor(False)), ("True", True), ("False", False)):
    z = w * 1
    z[key] = torch.tensor(-7.0, dtype=torch.float64)
    print(name, z, z.grad_fn, z.grad_fn.next_functions, z._version)
    (z * torch.arange(1.0, 7.0, dtype=torch.float64).reshape(2, 3)).sum().backward()
    print(w.grad)
    w.grad = None
w[False] = 3.0  # (a lone False writes nothing: not even a leaf's error)
print(w, w._version)
y = torch.zeros(2, 3, dtype=torch.float64)
y[torch.tensor(True), 1] = torch.tensor([[5.0, 6.0, 7.0]], dtype=torch.float64)
y[0, torch.tensor(True), 2] += 1
y[False, 0] = 9.0
print(y, y._version)
