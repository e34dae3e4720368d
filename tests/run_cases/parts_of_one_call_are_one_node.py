# The parts of one call that PyTorch records as one node (U, S, Vh = torch.linalg.svd(a); q, r = qr; values, indices;
# split/chunk/unbind) share one grad_fn object; tensor_split's parts are slices, a node each
import torch
a = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64, requires_grad=True)
s = torch.tensor([[2., 1.], [1., 3.]], dtype=torch.float64, requires_grad=True)
x = torch.tensor([[1., 5., 3.], [4., 2., 6.]], dtype=torch.float64, requires_grad=True)
for name, out in [("linalg.svd", torch.linalg.svd(a)), ("qr", torch.linalg.qr(a)), ("eigh", torch.linalg.eigh(s)),
                  ("slogdet", torch.linalg.slogdet(a)), ("lu_factor", torch.linalg.lu_factor(a)), ("lu", torch.linalg.lu(a)),
                  ("max", x.max(1)), ("sort", x.sort(1)), ("topk", x.topk(2)), ("std_mean", torch.std_mean(x, 1)),
                  ("var_mean", torch.var_mean(x)), ("aminmax", torch.aminmax(x)), ("frexp", torch.frexp(x)),
                  ("cummax", x.cummax(1)), ("split", x.split(1)), ("unbind", x.unbind(1)), ("chunk", x.chunk(3, 1)),
                  ("kthvalue", x.kthvalue(2, 1)), ("mode", x.mode(1)), ("median", x.median(1)), ("svd", torch.svd(a)),
                  ("cholesky_ex", torch.linalg.cholesky_ex(s)), ("inv_ex", torch.linalg.inv_ex(a)), ("eig?", torch.linalg.eigh(s, UPLO='U')),
                  ("lu_unpack", torch.lu_unpack(*torch.linalg.lu_factor(a))), ("lstsq", torch.linalg.lstsq(a, a)),
                  ("tensor_split", x.tensor_split(3, 1)), ("hsplit", x.hsplit(3)), ("meshgrid", torch.meshgrid(x[0], x[1], indexing='ij'))]:
    fns = [getattr(o, 'grad_fn', None) for o in out]
    same = [[fns[i] is fns[j] for j in range(len(fns))] for i in range(len(fns))]
    print(name, [type(f).__name__ for f in fns], same)
