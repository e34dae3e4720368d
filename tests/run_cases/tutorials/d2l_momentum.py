# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_optimization/momentum.md: its PyTorch cells on the 2D objective
# and the momentum update, in order, as written, except that the plotting is cut (d2l.show_trace_2d and the
# beta ** x / (1 - eta * lam) ** t curves only draw: the d2l.train_2d runs are kept) and the cells that train on
# the airfoil dataset (a download) are cut; the d2l helpers the cells call are written inline as d2l/torch.py
# defines them (train_2d; d2l.zeros is torch.zeros).
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_optimization/momentum.md
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


eta = 0.4
def f_2d(x1, x2):
    return 0.1 * x1 ** 2 + 2 * x2 ** 2
def gd_2d(x1, x2, s1, s2):
    return (x1 - eta * 0.2 * x1, x2 - eta * 4 * x2, 0, 0)

train_2d(gd_2d)

eta = 0.6
train_2d(gd_2d)

def momentum_2d(x1, x2, v1, v2):
    v1 = beta * v1 + 0.2 * x1
    v2 = beta * v2 + 4 * x2
    return x1 - eta * v1, x2 - eta * v2, v1, v2

eta, beta = 0.6, 0.5
train_2d(momentum_2d)

eta, beta = 0.6, 0.25
train_2d(momentum_2d)
