# What PyTorch says where expand, expand_as, broadcast_to, meshgrid, F.unfold and linalg.tensorinv refuse their
# args (issue #21's special points): expand's words name the tensor by its type and sizes
# ("expand(torch.DoubleTensor{[1, 3]}, size=[0])"), as does meshgrid's of an empty tensor of 2 dims and more; a
# (1, 3) tensor does not expand as a (3,) one; unfold of a tensor that requires grad reads its sizes at dims -1 and
# -2 first (autograd saves them); tensorinv says a singular matrix as "inv". Each call's exception type and words,
# or its value.
import torch
import torch.nn.functional as F

row = torch.tensor([[0.5, -1.0, 2.0]], dtype=torch.float64, requires_grad=True)
column = torch.tensor([[0.5], [1.5]], requires_grad=True)


def show(label, f):
    try:
        out = f()
    except Exception as e:
        print(label, type(e).__name__, e)
        return
    print(label, out)


calls = [
    ("expand_as empty", lambda: row.expand_as(torch.zeros(0, dtype=torch.float64))),
    ("expand_as fewer dims", lambda: row.expand_as(torch.ones(3))),
    ("expand_as of a column", lambda: column.expand_as(torch.ones(3))),
    ("expand_as that fits", lambda: row.expand_as(torch.ones(2, 3))),
    ("expand fewer sizes", lambda: row.expand(3)),
    ("expand -1", lambda: row.expand(-1)),
    ("expand float32", lambda: row.float().expand(3)),
    ("expand int64", lambda: torch.ones(1, 3, dtype=torch.int64).expand(3)),
    ("expand int32", lambda: torch.ones(1, 3, dtype=torch.int32).expand(2)),
    ("expand uint8", lambda: torch.ones(1, 3, dtype=torch.uint8).expand(3)),
    ("expand bool", lambda: torch.ones(1, 3, dtype=torch.bool).expand(3)),
    ("expand from the last dim", lambda: torch.ones(3).expand(1, -1, 2)),
    ("expand leading -1", lambda: torch.ones(3).expand(-1, 3)),
    ("expand mismatch", lambda: row.expand(2, 4)),
    ("broadcast_to fewer sizes", lambda: torch.broadcast_to(column, (3,))),
    ("meshgrid empty first", lambda: torch.meshgrid(torch.zeros(0, 3, dtype=torch.float64), row[0], indexing="ij")),
    ("meshgrid empty second", lambda: torch.meshgrid(row[0], torch.zeros(0, 3, dtype=torch.float64), indexing="ij")),
    ("meshgrid empty 3-D xy", lambda: torch.meshgrid(torch.ones(2), torch.zeros(1, 0, 2), indexing="xy")),
    ("meshgrid empty int64 list", lambda: torch.meshgrid([torch.ones(2, dtype=torch.int64),
                                                          torch.zeros(0, 2, dtype=torch.int64)], indexing="ij")),
    ("meshgrid empty bool", lambda: torch.meshgrid(torch.zeros(0, 3, dtype=torch.bool), torch.ones(2, dtype=torch.bool),
                                                   indexing="ij")),
    ("meshgrid two dtypes first", lambda: torch.meshgrid(torch.zeros(0, 3), row[0], indexing="ij")),
    ("meshgrid that fits", lambda: torch.meshgrid(row[0], column.reshape(2), indexing="xy")[0].shape),
    ("unfold empty, requires grad", lambda: F.unfold(torch.zeros(0, dtype=torch.float64, requires_grad=True), 2)),
    ("unfold 1-D, requires grad", lambda: F.unfold(torch.zeros(3, requires_grad=True), 2)),
    ("unfold 0-d, requires grad", lambda: F.unfold(torch.zeros((), requires_grad=True), 2)),
    ("unfold empty", lambda: F.unfold(torch.zeros(0, dtype=torch.float64), 2)),
    ("unfold 0-d", lambda: F.unfold(torch.zeros(()), 2)),
    ("unfold 2-D, requires grad", lambda: F.unfold(torch.zeros(2, 3, requires_grad=True), 2)),
    ("fold 1-D, requires grad", lambda: F.fold(torch.zeros(3, requires_grad=True), (2, 2), 2)),
]
for label, f in calls:
    show(label, f)
with torch.no_grad():
    show("unfold 1-D, requires grad, no_grad", lambda: F.unfold(torch.zeros(3, requires_grad=True), 2))

singular = torch.tensor([[[-1.5, 1.5], [0.0, 0.0]], [[-1.0, -0.75], [0.0, 0.0]], [[0.25, 1.25], [0.0, 0.0]],
                         [[-2.0, -1.75], [0.0, 0.0]]], dtype=torch.float64, requires_grad=True)
show("tensorinv singular", lambda: torch.linalg.tensorinv(singular, ind=1))
show("tensorinv singular matrix", lambda: torch.linalg.tensorinv(torch.tensor([[1.0, 2.0], [2.0, 4.0]],
                                                                              dtype=torch.float64), ind=1))
show("tensorinv of integers", lambda: torch.linalg.tensorinv(torch.ones(4, 2, 2, dtype=torch.int64), ind=1))
show("inv singular", lambda: torch.linalg.inv(torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64)))
show("tensorsolve singular", lambda: torch.linalg.tensorsolve(torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64),
                                                              torch.ones(2, dtype=torch.float64)))
try:
    torch.linalg.tensorinv(singular, ind=1)
except torch.linalg.LinAlgError as e:
    print("caught as LinAlgError:", e)
inverse = torch.linalg.tensorinv(torch.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=torch.float64, requires_grad=True), ind=1)
print(inverse, inverse.grad_fn, inverse.grad_fn.next_functions)
