import torch
import torch.nn.functional as F
# torch.embedding, aten's spelling: (weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False), not
# F.embedding's (input, weight). Its padding_idx is compared with the indices as given: -1 (the default, which
# F.embedding passes for None), any other negative one and one past the rows mask no row (issue #21)
w = torch.tensor([[1.0, 2.0], [3.0, -3.0], [4.0, 6.0], [0.1, 0.2]], dtype=torch.float64, requires_grad=True)
i = torch.tensor([[2, 0], [2, 3]])
seed = torch.arange(8.0, dtype=torch.float64).reshape(2, 2, 2)
for args, kwargs in (((), {}), ((2,), {}), ((-1, True), {}), ((), {"padding_idx": -2}), ((), {"padding_idx": 9}),
                     ((0, False, False), {}), ((), {"scale_grad_by_freq": True, "padding_idx": 3})):
    y = torch.embedding(w, i, *args, **kwargs)
    (y * seed).sum().backward()
    print(args, kwargs, y, y.grad_fn, y.grad_fn.next_functions, w.grad)
    w.grad = None
y = torch.embedding(indices=i, weight=w * 2)
print(y, y.grad_fn.next_functions[0][0])
print(torch.embedding(torch.arange(6).reshape(3, 2), torch.tensor(1)))
for call in (lambda: torch.embedding(w, i, None), lambda: torch.embedding(w, i, 0.5), lambda: torch.embedding(w, i, 1, 1),
             lambda: torch.embedding(w, i, 1, False, False, 0), lambda: torch.embedding(i, w),
             lambda: torch.embedding(w, i.float()), lambda: torch.embedding(w, torch.tensor([4])),
             lambda: torch.embedding(w[0], i), lambda: torch.embedding(w, i, sparse=1)):
    try:
        print(call())
    except (TypeError, RuntimeError, IndexError) as error:
        print(type(error).__name__, error)
