# NumPy's functions of torch tensors under PyTorch 2.13 with NumPy 2: a ufunc (np.exp, np.add, np.isnan) computes on the
# tensor's array and wraps its result back as a tensor without a graph (a bool one as uint8); np.reshape, np.argmax and
# the like fall back to the array and wrap it too; np.array, np.where, np.dot, np.median give NumPy's arrays and numbers;
# a tensor that requires grad is refused (Tensor.__array__), except under no_grad. NumPy's own: np.logsumexp is no name
# of NumPy's, np.median of an empty array is nan, np.set_printoptions holds for the arrays printed after it.
import numpy as np
import torch
t = torch.tensor([[1.0, 2.0], [4.0, 0.5]])
r = t.clone().requires_grad_()
i = torch.tensor([3, -1, 2])
calls = [
    ("exp", lambda: np.exp(t)), ("add", lambda: np.add(t, 1)), ("add int", lambda: np.add(i, 1)),
    ("sqrt int", lambda: np.sqrt(i)), ("isnan", lambda: np.isnan(t)), ("greater", lambda: np.greater(t, 1.5)),
    ("maximum", lambda: np.maximum(t, 2)), ("exp 0-d", lambda: np.exp(torch.tensor(1.0))),
    ("matmul", lambda: np.matmul(t, t)), ("argmax", lambda: np.argmax(t)), ("clip", lambda: np.clip(t, 1, 3)),
    ("reshape", lambda: np.reshape(t, (4,))), ("transpose", lambda: np.transpose(t)), ("cumsum", lambda: np.cumsum(t)),
    ("round", lambda: np.round(t)), ("array", lambda: np.array(t)), ("asarray", lambda: np.asarray(i)),
    ("where", lambda: np.where(t > 1, t, 0)), ("dot", lambda: np.dot(t[0], t[1])), ("median", lambda: np.median(t)),
    ("sort", lambda: np.sort(t)), ("concatenate", lambda: np.concatenate([t, t])), ("stack", lambda: np.stack([i, i])),
    ("shape", lambda: np.shape(t)), ("ndim", lambda: np.ndim(t)), ("allclose", lambda: np.allclose(t, t)),
    ("zeros_like", lambda: np.zeros_like(t)), ("outer", lambda: np.outer(i, i)),
    ("exp grad", lambda: np.exp(r)), ("array grad", lambda: np.array(r)), ("reshape grad", lambda: np.reshape(r, (4,))),
    ("where grad", lambda: np.where(r > 1, r, 0)), ("shape grad", lambda: np.shape(r)),
]
for label, f in calls:
    try:
        out = f()
        print(label, type(out).__name__, repr(out))
    except RuntimeError as e:
        print(label, "RuntimeError", e)
with torch.no_grad():
    print("exp grad no_grad", repr(np.exp(r)))
x = np.exp(t) * 2
print(type(x).__name__, x, x.requires_grad, x.grad_fn)
a = np.array([1.0, 2.0, 3.0])
try:
    print(np.logsumexp(a))
except AttributeError as e:
    print("AttributeError", e)
print(np.median(np.array([])))
print(np.median(np.array([[]]), axis=0))
np.set_printoptions(precision=3, suppress=True)
print(np.array([1.23456789, 1e-8, 100.5]))
print(np.array([[1 / 3, 2 / 3]]))
np.set_printoptions(precision=8)
print(np.array([1.23456789, 1e-8]))
