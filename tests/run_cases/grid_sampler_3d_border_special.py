# grid_sampler_3d with padding_mode='border' at NaN, infinite and huge coordinates, as PyTorch's 3-D kernel: its
# forward clips NaN to the far edge (min(size - 1, max(NaN, 0))), its backward keeps NaN (outside: no gradient);
# its terms added x fastest. (mode 'nearest' and 'reflection' padding are not supported; the 2-D kernel crashes
# on a NaN coordinate with border padding in PyTorch 2.13.)
import torch
nan, inf = float('nan'), float('inf')
a = torch.arange(2 * 27, dtype=torch.float64).reshape(1, 2, 3, 3, 3) / 7 - 2
for pad in (0, 1):
    for corners in (False, True):
        for mode in (0,):
            for special in (nan, inf, -inf, 1e300):
                g = torch.tensor([special, 0.25, -0.5, 0.1, special, 0.3, 0.2, -0.4, special], dtype=torch.float64).reshape(1, 1, 1, 3, 3)
                g.requires_grad_(True)
                aa = a.clone().requires_grad_(True)
                out = torch.grid_sampler_3d(aa, g, mode, pad, corners)
                out.sum().backward()
                print(pad, corners, mode, special, out.flatten().tolist(), round(aa.grad.sum().item(), 12))  # (the backward's sums: last bits apart)
