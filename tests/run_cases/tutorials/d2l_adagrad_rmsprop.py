# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_optimization/adagrad.md and rmsprop.md: their PyTorch cells on
# the 2D objective, in order, as written, except that the plotting is cut (d2l.show_trace_2d and the
# (1-gamma) * gamma ** x curves only draw: the d2l.train_2d runs are kept) and the cells that train on the airfoil
# dataset (a download) are cut; train_2d is written inline as d2l/torch.py defines it.
# Sources: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_optimization/adagrad.md
#          https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_optimization/rmsprop.md
import math
import torch


def train_2d(trainer, steps=20, f_grad=None):  #@save
    """Optimize a 2D objective function with a customized trainer."""
    # `s1` and `s2` are internal state variables that will be used later
    x1, x2, s1, s2 = -5, -2, 0, 0
    results = [(x1, x2)]
    for i in range(steps):
        if f_grad:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2, f_grad)
        else:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2)
        results.append((x1, x2))
    print(f'epoch {i + 1}, x1: {float(x1):f}, x2: {float(x2):f}')
    return results


# adagrad.md
def adagrad_2d(x1, x2, s1, s2):
    eps = 1e-6
    g1, g2 = 0.2 * x1, 4 * x2
    s1 += g1 ** 2
    s2 += g2 ** 2
    x1 -= eta / math.sqrt(s1 + eps) * g1
    x2 -= eta / math.sqrt(s2 + eps) * g2
    return x1, x2, s1, s2

def f_2d(x1, x2):
    return 0.1 * x1 ** 2 + 2 * x2 ** 2

eta = 0.4
train_2d(adagrad_2d)

eta = 2
train_2d(adagrad_2d)

# rmsprop.md
def rmsprop_2d(x1, x2, s1, s2):
    g1, g2, eps = 0.2 * x1, 4 * x2, 1e-6
    s1 = gamma * s1 + (1 - gamma) * g1 ** 2
    s2 = gamma * s2 + (1 - gamma) * g2 ** 2
    x1 -= eta / math.sqrt(s1 + eps) * g1
    x2 -= eta / math.sqrt(s2 + eps) * g2
    return x1, x2, s1, s2

def f_2d(x1, x2):
    return 0.1 * x1 ** 2 + 2 * x2 ** 2

eta, gamma = 0.4, 0.9
train_2d(rmsprop_2d)
