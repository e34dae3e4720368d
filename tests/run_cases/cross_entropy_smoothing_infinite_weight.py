# Label smoothing's 'mean' divides by the weights of the targets' classes, gathered (w[t]): an infinite weight
# of a class no sample targets gives PyTorch's inf, not 0 * inf = NaN.
import torch
import torch.nn.functional as F

a = torch.tensor([[-0.93, 0.90, 0.78], [-1.8, -0.51, -1.93]], dtype=torch.float64, requires_grad=True)
for w in ([0.56, 1.78, float('inf')], [float('-inf'), 1.78, 0.5], [0.56, 1.78, 2.0]):
    b = torch.tensor(w, dtype=torch.float64)
    out = F.cross_entropy(a, torch.tensor([1, 1]), weight=b, label_smoothing=0.1)
    out.backward()
    print(out, a.grad)
    a.grad = None
    print(F.cross_entropy(a, torch.tensor([1, 2]), weight=b, label_smoothing=0.25, reduction='sum'))
