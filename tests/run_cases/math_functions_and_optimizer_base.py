# math.gamma, lgamma, erf, erfc, expm1, log1p, log2, log10, isqrt on Python numbers (d2l's polynomial features
# divide by math.gamma(i + 1)); isinstance(o, torch.optim.Optimizer) of an optimizer (d2l's train_epoch_ch3)
import math
import torch
print(math.gamma(5), math.gamma(0.5), math.lgamma(10.5), math.erf(0.3), math.erfc(0.3))
print(math.expm1(1e-10), math.log1p(1e-10), math.log2(1024), math.log10(0.001), math.isqrt(99))
print(math.gamma(torch.tensor(4.)))
try:
    math.gamma(-1)
except ValueError as e:
    print(e)
try:
    math.gamma(1000)
except OverflowError as e:
    print(e)
w = torch.zeros(2, requires_grad=True)
sgd = torch.optim.SGD([w], lr=0.1)
print(isinstance(sgd, torch.optim.Optimizer), isinstance(w, torch.optim.Optimizer), isinstance(sgd, torch.optim.Adam))
