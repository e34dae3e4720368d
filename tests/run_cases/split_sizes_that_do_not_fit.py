# split, chunk and the hsplit family say PyTorch's errors where the sizes do not fit (they gave no parts at all),
# and chunk of an empty dim gives as many empty parts as asked, as PyTorch's.
import torch

calls = [
    ('torch.split(torch.zeros(0, 3), [1, 3, 1])', lambda: torch.split(torch.zeros(0, 3), [1, 3, 1])),
    ('torch.split(torch.zeros(5, 3), [1, 3])', lambda: torch.split(torch.zeros(5, 3), [1, 3])),
    ('torch.zeros(4, 3).split([1, 3], dim=1)', lambda: torch.zeros(4, 3).split([1, 3], dim=1)),
    ('torch.split_with_sizes(torch.zeros(0, 3), [1, 3, 1])', lambda: torch.split_with_sizes(torch.zeros(0, 3), [1, 3, 1])),
    ('torch.hsplit(torch.zeros(0, 3), 2)', lambda: torch.hsplit(torch.zeros(0, 3), 2)),
    ('torch.hsplit(torch.zeros(2, 4), 2)', lambda: torch.hsplit(torch.zeros(2, 4), 2)),
    ('torch.vsplit(torch.zeros(0), 2)', lambda: torch.vsplit(torch.zeros(0), 2)),
    ('torch.vsplit(torch.zeros(4, 2), 3)', lambda: torch.vsplit(torch.zeros(4, 2), 3)),
    ('torch.dsplit(torch.zeros(2, 2), 2)', lambda: torch.dsplit(torch.zeros(2, 2), 2)),
    ('torch.dsplit(torch.zeros(2, 2, 3), 2)', lambda: torch.dsplit(torch.zeros(2, 2, 3), 2)),
    ('torch.hsplit(torch.zeros(5), 2)', lambda: torch.hsplit(torch.zeros(5), 2)),
    ('torch.broadcast_tensors(torch.zeros(3), torch.zeros(0))', lambda: torch.broadcast_tensors(torch.zeros(3), torch.zeros(0))),
    ('torch.tensor_split(torch.zeros(0, 3), 2)', lambda: torch.tensor_split(torch.zeros(0, 3), 2)),
    ('torch.chunk(torch.zeros(0, 3), 2)', lambda: torch.chunk(torch.zeros(0, 3), 2)),
    ('torch.unbind(torch.zeros(0, 3))', lambda: torch.unbind(torch.zeros(0, 3))),
]
for label, call in calls:
    try:
        print(label, '->', [tuple(x.shape) for x in call()])
    except (RuntimeError, IndexError, ValueError, TypeError) as e:
        print(label, '->', type(e).__name__, str(e).split('\n')[0])
