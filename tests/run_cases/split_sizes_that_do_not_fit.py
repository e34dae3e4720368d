# split, chunk and the hsplit family say PyTorch's errors where the sizes do not fit (they gave no parts at all),
# and chunk of an empty dim gives as many empty parts as asked, as PyTorch's.
import torch
try:
    r = torch.split(torch.zeros(0, 3), [1, 3, 1])
    print('torch.split(torch.zeros(0, 3), [1, 3, 1])', '->', [tuple(x.shape) for x in r])
except (RuntimeError, IndexError, ValueError, TypeError) as e:
    print('torch.split(torch.zeros(0, 3), [1, 3, 1])', '->', type(e).__name__, str(e).split('\n')[0])
try:
    r = torch.split(torch.zeros(5, 3), [1, 3])
    print('torch.split(torch.zeros(5, 3), [1, 3])', '->', [tuple(x.shape) for x in r])
except (RuntimeError, IndexError, ValueError, TypeError) as e:
    print('torch.split(torch.zeros(5, 3), [1, 3])', '->', type(e).__name__, str(e).split('\n')[0])
try:
    r = torch.zeros(4, 3).split([1, 3], dim=1)
    print('torch.zeros(4, 3).split([1, 3], dim=1)', '->', [tuple(x.shape) for x in r])
except (RuntimeError, IndexError, ValueError, TypeError) as e:
    print('torch.zeros(4, 3).split([1, 3], dim=1)', '->', type(e).__name__, str(e).split('\n')[0])
try:
    r = torch.split_with_sizes(torch.zeros(0, 3), [1, 3, 1])
    print('torch.split_with_sizes(torch.zeros(0, 3), [1, 3, 1])', '->', [tuple(x.shape) for x in r])
except (RuntimeError, IndexError, ValueError, TypeError) as e:
    print('torch.split_with_sizes(torch.zeros(0, 3), [1, 3, 1])', '->', type(e).__name__, str(e).split('\n')[0])
try:
    r = torch.hsplit(torch.zeros(0, 3), 2)
    print('torch.hsplit(torch.zeros(0, 3), 2)', '->', [tuple(x.shape) for x in r])
except (RuntimeError, IndexError, ValueError, TypeError) as e:
    print('torch.hsplit(torch.zeros(0, 3), 2)', '->', type(e).__name__, str(e).split('\n')[0])
try:
    r = torch.hsplit(torch.zeros(2, 4), 2)
    print('torch.hsplit(torch.zeros(2, 4), 2)', '->', [tuple(x.shape) for x in r])
except (RuntimeError, IndexError, ValueError, TypeError) as e:
    print('torch.hsplit(torch.zeros(2, 4), 2)', '->', type(e).__name__, str(e).split('\n')[0])
try:
    r = torch.vsplit(torch.zeros(0), 2)
    print('torch.vsplit(torch.zeros(0), 2)', '->', [tuple(x.shape) for x in r])
except (RuntimeError, IndexError, ValueError, TypeError) as e:
    print('torch.vsplit(torch.zeros(0), 2)', '->', type(e).__name__, str(e).split('\n')[0])
try:
    r = torch.vsplit(torch.zeros(4, 2), 3)
    print('torch.vsplit(torch.zeros(4, 2), 3)', '->', [tuple(x.shape) for x in r])
except (RuntimeError, IndexError, ValueError, TypeError) as e:
    print('torch.vsplit(torch.zeros(4, 2), 3)', '->', type(e).__name__, str(e).split('\n')[0])
try:
    r = torch.dsplit(torch.zeros(2, 2), 2)
    print('torch.dsplit(torch.zeros(2, 2), 2)', '->', [tuple(x.shape) for x in r])
except (RuntimeError, IndexError, ValueError, TypeError) as e:
    print('torch.dsplit(torch.zeros(2, 2), 2)', '->', type(e).__name__, str(e).split('\n')[0])
try:
    r = torch.dsplit(torch.zeros(2, 2, 3), 2)
    print('torch.dsplit(torch.zeros(2, 2, 3), 2)', '->', [tuple(x.shape) for x in r])
except (RuntimeError, IndexError, ValueError, TypeError) as e:
    print('torch.dsplit(torch.zeros(2, 2, 3), 2)', '->', type(e).__name__, str(e).split('\n')[0])
try:
    r = torch.hsplit(torch.zeros(5), 2)
    print('torch.hsplit(torch.zeros(5), 2)', '->', [tuple(x.shape) for x in r])
except (RuntimeError, IndexError, ValueError, TypeError) as e:
    print('torch.hsplit(torch.zeros(5), 2)', '->', type(e).__name__, str(e).split('\n')[0])
try:
    r = torch.broadcast_tensors(torch.zeros(3), torch.zeros(0))
    print('torch.broadcast_tensors(torch.zeros(3), torch.zeros(0))', '->', [tuple(x.shape) for x in r])
except (RuntimeError, IndexError, ValueError, TypeError) as e:
    print('torch.broadcast_tensors(torch.zeros(3), torch.zeros(0))', '->', type(e).__name__, str(e).split('\n')[0])
try:
    r = torch.tensor_split(torch.zeros(0, 3), 2)
    print('torch.tensor_split(torch.zeros(0, 3), 2)', '->', [tuple(x.shape) for x in r])
except (RuntimeError, IndexError, ValueError, TypeError) as e:
    print('torch.tensor_split(torch.zeros(0, 3), 2)', '->', type(e).__name__, str(e).split('\n')[0])
try:
    r = torch.chunk(torch.zeros(0, 3), 2)
    print('torch.chunk(torch.zeros(0, 3), 2)', '->', [tuple(x.shape) for x in r])
except (RuntimeError, IndexError, ValueError, TypeError) as e:
    print('torch.chunk(torch.zeros(0, 3), 2)', '->', type(e).__name__, str(e).split('\n')[0])
try:
    r = torch.unbind(torch.zeros(0, 3))
    print('torch.unbind(torch.zeros(0, 3))', '->', [tuple(x.shape) for x in r])
except (RuntimeError, IndexError, ValueError, TypeError) as e:
    print('torch.unbind(torch.zeros(0, 3))', '->', type(e).__name__, str(e).split('\n')[0])
