# Grad modes as tutorials write them: @torch.no_grad() and the other decorators, set_grad_enabled (with and as
# a call), inference_mode, is_grad_enabled; global and nonlocal names in functions.
import torch
x = torch.ones(2, requires_grad=True)
@torch.no_grad()
def f(t):
    return t * 2
@torch.no_grad
def f2(t):
    return t * 2
@torch.enable_grad()
def g(t):
    return t * 2
@torch.inference_mode()
def h(t):
    return t * 2
print(f(x).requires_grad, f2(x).requires_grad, h(x).requires_grad)
with torch.no_grad():
    print(g(x).requires_grad)
with torch.set_grad_enabled(False):
    print((x * 2).requires_grad)
print((x * 2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(False)
print((x * 2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.inference_mode():
    print((x * 2).requires_grad)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 3
print(y.requires_grad, f)
count = 0
def step():
    global count
    count += 1
    return count
step(); step()
print(count)
def counter():
    n = 0
    def inc():
        nonlocal n
        n += 1
        return n
    return inc
c = counter()
print(c(), c(), c())
def outer():
    total = torch.zeros(2)
    def add(x):
        nonlocal total
        total = total + x
    add(torch.ones(2)); add(torch.ones(2))
    return total
print(outer())
def make():
    global made
    made = "yes"
make()
print(made)
