# Found by fuzz/programs.py: PyTorch's IndexError for an advanced index (a list, a tensor of indices) out of range
# names its place among the advanced indices (x[:, [5]]: "dimension 0"), an int's the tensor's own dimension.
import torch

x = torch.zeros(2, 3, 4, requires_grad=True)
m = torch.tensor([True, False])
for f in [lambda: x[:, [5]], lambda: x[:, :, [7]], lambda: x[[0], [5]], lambda: x[:, [0], [9]], lambda: x[[5]],
          lambda: x[..., [9]], lambda: x[:, torch.tensor([5])], lambda: x[0, [5]], lambda: x[:, 5], lambda: x[[0, 1], :, [9, 0]],
          lambda: x[None, :, [4]], lambda: x[:, None, [1, 3]], lambda: x[1, :, [-5]], lambda: x[[1], 1, [4]],
          lambda: x[:, [[0, 3]]], lambda: x[..., 1, [4]], lambda: x[:, 1:, [0, 4]],
          lambda: x[[0], ..., [4]], lambda: x[:, 0, 9], lambda: x[m][:, [3]]]:
    try:
        print(f().shape)
    except IndexError as e:
        print("IndexError:", e)
y = x * 2
y[:, [1, 3]]
