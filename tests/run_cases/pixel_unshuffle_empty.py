# F.pixel_unshuffle of an empty input is the input back, in its own shape (PyTorch's kernel clones it), and its
# backward then raises PyTorch's words (a pixel_shuffle of that shape's gradient).
import torch
import torch.nn.functional as F

for shape in [(0, 1, 4, 6), (0, 4, 4, 6), (2, 0, 4, 6), (1, 1, 4, 6)]:
    x = torch.full(shape, 0.5, dtype=torch.float64, requires_grad=True)
    out = F.pixel_unshuffle(x, 2)
    print(out.shape, out.grad_fn.name(), out)
    try:
        out.sum().backward()
        print(x.grad.shape)
    except Exception as e:
        print(type(e).__name__, e)
