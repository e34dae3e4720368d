# torch.svd(A) is torch.linalg.svd(A, full_matrices=not some) with V = Vh.mT: V's grad_fn is a
# TransposeBackward0 over the LinalgSvdBackward0 that U and S come from (batched and some=False too)
import torch

a = torch.tensor([[0.2832309557953212, -1.6321169123637906], [1.4288189477857762, -1.9156805290830352]],
                 dtype=torch.float64, requires_grad=True)
U, S, V = torch.svd(a)
print(U.grad_fn.name(), S.grad_fn.name(), V.grad_fn.name())
print(V.grad_fn.next_functions[0][0].name(), V.grad_fn.next_functions[0][1])
print(V)
(U.sum() + 2 * S.sum() + (V * torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64)).sum()).backward()
print(torch.round(a.grad, decimals=12).tolist())  # (the last bits are LAPACK's: MKL's in PyTorch)

b = torch.tensor([[[1., 2., 0.5], [3., 4., -1.]], [[0.5, -2., 1.], [2., 1., 3.]]], dtype=torch.float64,
                 requires_grad=True)
U, S, V = b.svd(some=False)
print(U.shape, S.shape, V.shape, V.grad_fn.name())
S.sum().backward()
print(torch.round(b.grad, decimals=12).tolist())

c = torch.tensor([[4., 1.], [2., 3.], [0., 1.]], dtype=torch.float64, requires_grad=True)
U, S, V = torch.svd(c, compute_uv=False)
print(U, V, U.grad_fn, V.grad_fn, S.grad_fn.name())
