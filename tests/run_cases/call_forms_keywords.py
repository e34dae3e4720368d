import torch
import torch.nn.functional as F
# The keyword-only args of PyTorch's signatures (issue #21): by keyword they answer, by position PyTorch's parser
# refuses them (index_add's alpha, index_reduce's and scatter_reduce's include_self, gather's sparse_grad); the
# args that change nothing here (expand's implicit, clone's memory_format, ones_like's layout) answer with a value of
# their type and are PyTorch's TypeError with another; the list of tensors by its keyword (cat(tensors=...)), where
# PyTorch's parser takes it, and not where the function is Python's *tensors (meshgrid).
a = torch.tensor([[1.0, 2.0], [3.0, -3.0], [4.0, 6.0]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([[0.5, 1.5]], dtype=torch.float64, requires_grad=True)
c = torch.tensor([1])
i = torch.tensor([[1, 0]])
calls = [
    lambda: torch.index_add(a, 0, c, b, alpha=2.0),
    lambda: torch.index_add(a, 0, c, b, 2.0),
    lambda: a.index_add(0, c, b, 2.0),
    lambda: a.index_add(0, c, b, alpha=-1.0),
    lambda: torch.index_reduce(a, 0, c, b, 'prod', include_self=False),
    lambda: torch.index_reduce(a, 0, c, b, 'prod', False),
    lambda: torch.scatter_reduce(a, 0, i, b, 'sum', include_self=False),
    lambda: torch.scatter_reduce(a, 0, i, b, 'sum', False),
    lambda: a.scatter_reduce(0, i, b, 'amax', False),
    lambda: torch.gather(a, 0, i, sparse_grad=False),
    lambda: a.gather(0, i, sparse_grad=False),
    lambda: torch.gather(a, 0, i, False),
    lambda: a.expand(3, 2, implicit=False),
    lambda: a.expand((3, 2), implicit=True),
    lambda: a.expand(3, 2, implicit=1),
    lambda: torch.expand_copy(a, (3, 2), implicit=True),
    lambda: torch.clone(a, memory_format=torch.contiguous_format),
    lambda: a.clone(memory_format=torch.preserve_format),
    lambda: torch.clone(a, memory_format=1),
    lambda: torch.ones_like(a, layout=torch.strided),
    lambda: torch.ones_like(a, layout=1),
    lambda: torch.zeros_like(a, memory_format=torch.contiguous_format),
    lambda: torch.zeros_like(a, memory_format=1),
    lambda: torch.full_like(a, 2.0, layout=None),
    lambda: torch.ones_like(a, pin_memory=False),
    lambda: torch.ones_like(a, pin_memory=True),
    lambda: torch.cat(tensors=[a, a]),
    lambda: torch.cat(tensors=(a, a), dim=1),
    lambda: torch.cat([a, a], bogus=1),
    lambda: torch.stack(tensors=[a, a], dim=1),
    lambda: torch.hstack(tensors=[a, a]),
    lambda: torch.vstack(tensors=(a, a)),
    lambda: torch.linalg.multi_dot(tensors=[a.T, a]),
    lambda: torch.meshgrid(tensors=[a[0], a[1]], indexing='ij'),
    lambda: torch.block_diag(tensors=[a]),
    lambda: torch.broadcast_to(a, (3, 2), implicit=True),
]
for call in calls:
    try:
        out = call()
        print(out)
        if out.requires_grad:
            out.sum().backward()
            print(a.grad)
            a.grad = None
    except (TypeError, RuntimeError) as error:
        print(type(error).__name__ + ":", error)
