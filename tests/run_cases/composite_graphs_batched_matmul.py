import torch
def show(fn, depth=0):
    if fn is None:
        print("  " * depth + "None")
        return
    print("  " * depth + str(fn)[1:].split(" ")[0])
    for f, _ in fn.next_functions:
        show(f, depth + 1)
for sa, sb, ga, gb in [((2, 3), (4, 3, 2), True, True), ((2, 3), (4, 3, 2), True, False), ((4, 2, 3), (4, 3, 2), True, True),
                       ((1, 2, 3), (4, 3, 2), True, True), ((1, 2, 3), (4, 3, 2), False, True), ((3,), (4, 3, 2), True, True),
                       ((3,), (4, 3, 2), True, False), ((2, 1, 2, 3), (3, 3, 2), True, True), ((4, 2, 3), (1, 3, 2), True, True),
                       ((2, 1), (4, 1, 2), True, True), ((2, 3), (5, 4, 3, 2), True, True), ((5, 1, 2, 3), (4, 3, 2), True, False),
                       ((2, 2, 3), (3,), False, True)]:
    a = torch.arange(float(torch.ones(sa).numel())).reshape(sa).requires_grad_(ga)
    b = torch.arange(float(torch.ones(sb).numel())).reshape(sb).requires_grad_(gb)
    y = a @ b
    print(sa, sb, ga, gb, tuple(y.shape), y.sum().item())
    show(y.grad_fn, 1)
    (y * torch.arange(float(y.numel())).reshape(y.shape)).sum().backward()
    print(a.grad, b.grad)
