import torch
# The calls that give a tuple of parts, with a dim out of range (issue #21): PyTorch's IndexError, not an empty tuple.
a = torch.tensor([[1.0, 2.0, 4.0], [3.0, -3.0, 6.0]], dtype=torch.float64, requires_grad=True)
calls = [
    lambda: torch.unbind(a, 1),
    lambda: torch.unbind(a, 7),
    lambda: torch.unbind(a, -8),
    lambda: a.unbind(2),
    lambda: torch.unbind_copy(a, 7),
    lambda: torch.split(a, 1, 7),
    lambda: a.split(2, -3),
    lambda: torch.chunk(a, 2, 7),
    lambda: torch.unsafe_split(a, 1, 7),
    lambda: torch.unsafe_chunk(a, 1, -8),
    lambda: torch.tensor_split(a, (1, 3), 7),
    lambda: torch.tensor_split(a, 2, -3),
    lambda: torch.hsplit(a, 3),
]
for call in calls:
    try:
        print(call())
    except IndexError as error:
        print("IndexError:", error)
