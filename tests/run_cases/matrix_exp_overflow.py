# matrix_exp where the squarings overflow: PyTorch scales A by 2^s until its 1-norm is at most its degree-18 bound
# and squares s times, so the infinities (and NaNs) are those of these squarings; gradcli squares as often. (A
# matrix of -1e300 beside small numbers is left out: PyTorch's Taylor sum keeps 1 exactly where a Pade quotient
# rounds it, and 2^997 squarings make that 1 or 0.)
import torch
for m in ([[1e300, -1.5159554863355562], [-0.8016989838219413, -0.8492611541096879]], [[1e300, 0.], [0., 1.]],
          [[700., 1.], [0., 700.]], [[710., 0.], [0., -710.]], [[3., 4.], [-4., 3.]], [[1e5, -1e5], [1e5, 1e5]],
          [[0.5, 2.], [0.1, -1.]], [[40., 30.], [-30., 40.]]):
    a = torch.tensor(m, dtype=torch.float64, requires_grad=True)
    e = torch.matrix_exp(a)
    print(e)
    e.sum().backward()
    print(a.grad)
