# F.rms_norm(x, [3]): a list where the signature has normalized_shape is the shape, not the weight (the call was an
# internal error: the list was bound as the weight of the weighted overload)
import torch
import torch.nn.functional as F

x = torch.tensor([[0.5, -1.5, 2.0], [3.0, 0.25, -4.0]], dtype=torch.float64, requires_grad=True)
for y in (F.rms_norm(x, [3]), F.rms_norm(x, (3,)), F.rms_norm(x, [3], None), F.rms_norm(x, [2, 3]),
          F.rms_norm(x, [3], torch.full((3,), 2.0, dtype=torch.float64)), F.rms_norm(x, [3], eps=0.5)):
    print(y, y.grad_fn)
F.rms_norm(x, [3]).sum().backward()
print(x.grad)
