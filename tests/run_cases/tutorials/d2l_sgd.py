# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_optimization/sgd.md: its PyTorch cells in order, as written,
# except that the plotting is cut (d2l.show_trace_2d(f, results) only draws: the d2l.train_2d runs it plots are
# kept), torch.manual_seed(0) is added after the imports (the noisy gradients are unseeded draws), and the d2l
# helpers the cells call are written inline as d2l/torch.py defines them (train_2d; d2l.normal is torch.normal).
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_optimization/sgd.md
import math
import torch
torch.manual_seed(0)


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


def f(x1, x2):  # Objective function
    return x1 ** 2 + 2 * x2 ** 2

def f_grad(x1, x2):  # Gradient of the objective function
    return 2 * x1, 4 * x2

def sgd(x1, x2, s1, s2, f_grad):
    g1, g2 = f_grad(x1, x2)
    # Simulate noisy gradient
    g1 += torch.normal(0.0, 1, (1,))
    g2 += torch.normal(0.0, 1, (1,))
    eta_t = eta * lr()
    return (x1 - eta_t * g1, x2 - eta_t * g2, 0, 0)

def constant_lr():
    return 1

eta = 0.1
lr = constant_lr  # Constant learning rate
train_2d(sgd, steps=50, f_grad=f_grad)

def exponential_lr():
    # Global variable that is defined outside this function and updated inside
    global t
    t += 1
    return math.exp(-0.1 * t)

t = 1
lr = exponential_lr
train_2d(sgd, steps=1000, f_grad=f_grad)

def polynomial_lr():
    # Global variable that is defined outside this function and updated inside
    global t
    t += 1
    return (1 + 0.1 * t) ** (-0.5)

t = 1
lr = polynomial_lr
train_2d(sgd, steps=50, f_grad=f_grad)
