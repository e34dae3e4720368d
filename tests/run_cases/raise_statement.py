# raise: Python's exception classes made and raised by the file, caught by their classes, raised again by a
# bare raise, and the last one ending the run as Python's traceback ends.
import torch
print(ValueError, repr(ValueError("x")), ValueError(), str(ValueError("a", 2)), repr(KeyError("k")))


def check(x):
    if x.dim() != 1:
        raise ValueError(f"expected a vector, got {x.dim()} dims")
    return x.sum()


try:
    check(torch.ones(2, 2))
except ValueError as e:
    print("caught:", e)

try:
    try:
        torch.ones(2) @ torch.ones(3)
    except RuntimeError:
        print("inner")
        raise
except RuntimeError as e:
    print("outer:", e)

try:
    raise NotImplementedError
except NotImplementedError as e:
    print("not implemented", repr(e), str(e) == "")

try:
    raise KeyError("missing") from None
except LookupError as e:
    print("lookup", e)

err = TypeError("bad type")
try:
    raise err
except (TypeError, ValueError) as e:
    print(e)


class Net(torch.nn.Module):
    def forward(self, x):
        raise NotImplementedError("subclasses implement forward")


try:
    Net()(torch.ones(1))
except NotImplementedError as e:
    print(e)
print(check(torch.ones(3)))
check(torch.ones(1, 1))
