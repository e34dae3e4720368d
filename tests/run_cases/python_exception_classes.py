# Exception classes of the file, as training scripts write them to stop early or report bad input:
# raised with and without a message, caught by their own class, by their base and by Exception,
# a subclass of a subclass, isinstance, repr and type(e).__name__, and one left uncaught at the end.
import math

import torch


class TrainingError(Exception):
    """Raised when training goes wrong."""


class DivergedError(TrainingError):
    pass


class ShapeError(ValueError):
    pass


def check(loss):
    if math.isnan(loss.item()):
        raise DivergedError(f"loss is {loss.item()}")
    return loss.item()


for value in [1.5, float("nan")]:
    try:
        print(check(torch.tensor(value)))
    except TrainingError as e:
        print("stopped:", e, repr(e), type(e).__name__, isinstance(e, DivergedError), isinstance(e, ValueError))

try:
    raise ShapeError("expected 2 dims")
except ValueError as e:
    print("ValueError caught:", e)

try:
    raise TrainingError
except (ShapeError, Exception) as e:
    print("caught", repr(e))

try:
    raise ShapeError("x")
except DivergedError:
    print("not here")
except ShapeError as e:
    print("ShapeError:", e)

print(DivergedError)
raise DivergedError("the end")
