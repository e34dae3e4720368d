# Least squares, pseudo-inverses and singular values of matrices holding an infinity (issue #21), as PyTorch 2.13
# answers them on the CPU: an infinite B solves to NaN, an SVD of an infinite matrix has NaN singular values and a
# pseudo-inverse of 0 (gradcli hung in NumPy's SVD here). (NaN: tests/test_special_points_found.py; MKL prints to
# stdout there.)
import torch

A = torch.tensor([[0.5, -1.0], [1.5, 2.0], [-0.25, 1.0]], dtype=torch.float64)
B = torch.tensor([[1.0, 0.5], [-2.0, 0.25], [0.75, 1.0]], dtype=torch.float64)
for value in (float("inf"), -float("inf")):  # (an infinite A: gelsy's answer follows no rule gradcli knows)
    for at in (0, -1):
        B2 = B.clone()
        B2[at, at] = value
        print(value, at, torch.linalg.lstsq(A, B2).solution)

a = torch.tensor([[float("inf"), 1, 2], [3, 4, 5], [1, 2, 1], [0, 1, 3.]], dtype=torch.float64, requires_grad=True)
for name, f in [("svdvals", torch.linalg.svdvals), ("pinv", torch.linalg.pinv),
                ("nuclear norm", lambda m: torch.linalg.matrix_norm(m, "nuc"))]:
    out = f(a)
    out.sum().backward()
    print(name, out, a.grad)
    a.grad = None
square = torch.tensor([[float("inf"), 1], [3, 4.]], dtype=torch.float64, requires_grad=True)
out = torch.linalg.pinv(square)
out.sum().backward()
print(out, square.grad)
