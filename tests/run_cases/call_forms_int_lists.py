import torch
# A list of ints (issue #21): a method whose one positional param is the list takes the ints themselves
# (a.flip(0, 1), as a.reshape(3, 2)); where the list is not its one positional param PyTorch's parser refuses an int
# for it (a.rot90(1, 1): dims), as it does for every torch. function (torch.flip(a, 0)).
a = torch.tensor([[1.0, 2.0, 4.0], [3.0, -3.0, 6.0]], dtype=torch.float64, requires_grad=True)
calls = [
    lambda: a.flip(0, 1),
    lambda: a.flip(1),
    lambda: a.flip((0, 1)),
    lambda: a.flip(dims=(0,)),
    lambda: a.flip(dims=0),
    lambda: torch.flip(a, 0, 1),
    lambda: torch.flip(a, 0),
    lambda: torch.flip(a, (0, 1)),
    lambda: a.rot90(1, [0, 1]),
    lambda: a.rot90(1, 1),
    lambda: a.rot90(1, 0, 1),
    lambda: a.rot90(1, dims=1),
    lambda: a.permute(1, 0),
    lambda: a.reshape(6),
    lambda: a.unflatten(1, (3, 1)),
]
for call in calls:
    try:
        out = call()
        print(out)
        out.sum().backward()
        print(a.grad)
        a.grad = None
    except TypeError as error:
        print("TypeError:", error)
