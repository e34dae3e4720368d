# torch.linalg's functions (and torch.svd, torch.lu, torch.triangular_solve, torch.lu_solve) refused as PyTorch 2.13
# refuses them, each in its own words: fewer than 2 dims ("input should have at least 2 dimensions", "Expected tensor
# with 2 or more dimensions. Got size", pinv's dtype and shape in one message), B's own checks, vector right-hand sides
# shown as columns, lstsq's dims, tensorsolve's and tensorinv's slices; matrix norms of a matrix of no entries (the
# largest of none is 0, of no graph). Shapes only: no value depends on LAPACK or MKL.
import torch


def t(*s):
    return torch.zeros(s, dtype=torch.float64)


def say(name, thunk):
    try:
        out = thunk()
        r = "ok " + str(list(out.shape))
    except Exception as e:
        r = type(e).__name__ + ": " + str(e).splitlines()[0]
    print(name, r)


A = [(), (0,), (3,), (0, 3), (3, 0), (2, 3), (3, 3), (2, 2), (0, 0), (2, 3, 3)]
for s in A:
    a = t(*s)
    say(f"torch.svd {list(s)}", lambda: torch.svd(a)[0])
    say(f"torch.svd values {list(s)}", lambda: torch.svd(a, compute_uv=False)[1])
    say(f"linalg.svd {list(s)}", lambda: torch.linalg.svd(a)[1])
    say(f"linalg.svdvals {list(s)}", lambda: torch.linalg.svdvals(a))
    say(f"pinv {list(s)}", lambda: torch.linalg.pinv(a))
    say(f"pinv float32 {list(s)}", lambda: torch.linalg.pinv(a.float()))
    say(f"lu_factor_ex {list(s)}", lambda: torch.linalg.lu_factor_ex(a)[0])
    say(f"lu_factor {list(s)}", lambda: torch.linalg.lu_factor(a)[0])
    say(f"torch.lu {list(s)}", lambda: torch.lu(a)[0])
    say(f"linalg.lu {list(s)}", lambda: torch.linalg.lu(a)[1])
    say(f"inv {list(s)}", lambda: torch.linalg.inv(a))
    say(f"det {list(s)}", lambda: torch.linalg.det(a))
    say(f"matrix_norm {list(s)}", lambda: torch.linalg.matrix_norm(a))
    say(f"cholesky {list(s)}", lambda: torch.linalg.cholesky(a))
    say(f"qr {list(s)}", lambda: torch.linalg.qr(a)[0])
    say(f"eigh {list(s)}", lambda: torch.linalg.eigh(a)[0])
    say(f"eigvalsh {list(s)}", lambda: torch.linalg.eigvalsh(a))
    say(f"slogdet {list(s)}", lambda: torch.linalg.slogdet(a)[1])
    say(f"matrix_exp {list(s)}", lambda: torch.linalg.matrix_exp(a))
    say(f"cond {list(s)}", lambda: torch.linalg.cond(a))
    say(f"norm ord1 long {list(s)}", lambda: torch.linalg.norm(a.long(), ord=1.0))
    say(f"norm ord1 {list(s)}", lambda: torch.linalg.norm(a, ord=1.0))
    say(f"norm long {list(s)}", lambda: torch.linalg.norm(a.long()))
    say(f"norm bool dim {list(s)}", lambda: torch.linalg.norm(a.bool(), dim=0))
    if len(s) != 2 or s[0] != s[1]:  # (a singular one: PyTorch's inv says "inv:", gradcli "linalg.inv:")
        say(f"tensorinv {list(s)}", lambda: torch.linalg.tensorinv(a, ind=1))
    for u in [(), (0,), (3,), (2,), (0, 3), (0, 2), (3, 2), (2, 2), (3, 1), (2, 3, 1)]:
        b = t(*u)
        tag = f"{list(s)} {list(u)}"
        say(f"solve {tag}", lambda: torch.linalg.solve(a, b))
        if s != (0, 0):
            say(f"solve_ex {tag}", lambda: torch.linalg.solve_ex(a, b)[0])
        say(f"solve_triangular {tag}", lambda: torch.linalg.solve_triangular(a, b, upper=True))
        say(f"triangular_solve {tag}", lambda: torch.triangular_solve(a, b)[0])
        if not (len(s) == 3 and len(u) == 2 and u[0] == 3):  # (PyTorch broadcasts B's rows as a batch there)
            say(f"lstsq {tag}", lambda: torch.linalg.lstsq(a, b)[0])
        say(f"lu_solve {tag}", lambda: torch.linalg.lu_solve(a, torch.zeros(s[:-1], dtype=torch.int32) + 1, b))
        say(f"tensorsolve {tag}", lambda: torch.linalg.tensorsolve(a, b))
        say(f"tensorsolve long {tag}", lambda: torch.linalg.tensorsolve(a.long(), b))
        say(f"cholesky_solve {tag}", lambda: torch.cholesky_solve(b, a))
for s, u in [((3, 3), (3, 2)), ((3, 3), (2, 3)), ((2, 2), (3, 3))]:
    say(f"lu_solve left=False {list(s)} {list(u)}", lambda: torch.linalg.lu_solve(t(*s), torch.ones(s[:-1], dtype=torch.int32), t(*u), left=False))
    say(f"torch.lu_solve {list(s)} {list(u)}", lambda: torch.lu_solve(t(*u), t(*s), torch.ones(s[:-1], dtype=torch.int32)))
for s in [(3, 0), (0, 3), (0, 0)]:
    a = torch.zeros(s, dtype=torch.float64, requires_grad=True)
    for o in [1, -1, float("inf"), -float("inf"), 2, "nuc", "fro"]:
        try:
            r = torch.linalg.matrix_norm(a, o)
            print("matrix_norm", list(s), o, r, r.grad_fn is not None)
        except Exception as e:
            print("matrix_norm", list(s), o, type(e).__name__, e)
