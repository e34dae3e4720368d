# `global` and `nonlocal` as Python scopes them: d2l's learning-rate schedules that count steps in a module
# variable, a closure's counter, a nested nonlocal through two functions, a global read before and after the
# function rebinds it, a function defined into the module's scope, and UnboundLocalError beside them.
import math
import torch


def exponential_lr():
    # Global variable that is defined outside this function and updated inside
    global t
    t += 1
    return math.exp(-0.1 * t)


t = 1
print([round(exponential_lr(), 6) for _ in range(3)], t)


def make_counter():
    count = 0

    def step():
        nonlocal count
        count += 1
        return count

    def outer():
        def inner():
            nonlocal count
            count = count * 10
        inner()
        return count

    return step, outer


step, outer = make_counter()
print(step(), step(), outer(), step())


def define():
    global helper, w

    def helper(x):
        return x * 2

    w = torch.ones(2, requires_grad=True)


define()
print(helper(21), w)
loss = (w * w).sum()
loss.backward()
print(w.grad)


def shadow():
    t = 100  # a local: the module's t stays
    return t


print(shadow(), t)


def unbound():
    u = t + 1
    t = 3
    return u


try:
    unbound()
except UnboundLocalError as e:
    print(repr(e))
