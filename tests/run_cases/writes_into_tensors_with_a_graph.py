# t[k] = v into a tensor with a graph, or with a value that has one: IndexPutBackward0 for a mask or an
# index tensor, CopySlices for ints and slices, through a view CopySlices on its base (AsStridedBackward0).
import torch
w = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
X = w * 2
mask = torch.tensor([[True, False, True], [False, True, True]])
X[~mask] = -1e6
print(X, X.grad_fn, X.grad_fn.next_functions, X.is_leaf, X.requires_grad)
X.sum().backward(); print(w.grad)
Y = w * 1
Y[0] = 7.
print(Y, Y.grad_fn, Y.grad_fn.next_functions)
Y.sum().backward(); print(w.grad)
v = torch.tensor([9., 8., 7.], requires_grad=True)
Z = w + 0
Z[1] = v * 2
print(Z, Z.grad_fn, Z.grad_fn.next_functions)
(Z ** 2).sum().backward(); print(w.grad, v.grad)
A = w.clone()
A[:, 1] = 0
print(A.grad_fn)
B = torch.zeros(2, 3)
B[0] = v
print(B, B.grad_fn, B.grad_fn.next_functions)
C = w * 1
C[C > 3] = 0.5
print(C.grad_fn, C.grad_fn.next_functions)
w = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
B = w * 2
X = B.reshape(-1, 3)
mask = torch.tensor([[True, False, True], [False, True, True]])
X[~mask] = -1e6
print(X.grad_fn, X.grad_fn.next_functions, B.grad_fn, B.grad_fn.next_functions)
X.sum().backward(); print(w.grad)
h = w * 1
row = h[0]
row[1] = 5.
print(row.grad_fn, h.grad_fn, h)
s = torch.tensor([1., 2., 3., 4.], requires_grad=True)
t = s * 3
t[[0, 2]] = torch.tensor([10., 20.])
t[1:3] += s[:2]
print(t, t.grad_fn)
t.sum().backward()
print(s.grad)
q = torch.zeros(2, 2, dtype=torch.float64)
q[:, 0] = s[:2] * 2
print(q, q.grad_fn, q.dtype)
C2 = w * 1
C2[mask] = v[:4]
