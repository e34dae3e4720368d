# The Python that autograd tutorials wrap around tensors: loops, if, def, lambda, comprehensions, dicts.
import torch
import math

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
total = 0
for i, v in enumerate(x):
    if v > 0:
        total = total + v * i
    elif v < -1:
        continue
    else:
        break
else:
    print("no break")
total.backward()
print(total, x.grad)

def poly(t, coeffs, *, scale=1.0):
    return scale * sum(c * t ** k for k, c in enumerate(coeffs))

w = torch.tensor(2.0, requires_grad=True)
y = poly(w, [1.0, 0.5, 0.25], scale=2)
y.backward()
print(y, w.grad)

def make_step(lr):
    def step(p, g):
        return p - lr * g
    return step

sgd = make_step(0.1)
print(sgd(1.0, 2.0), (lambda a, b=3: a * b)(2))

losses = {}
for epoch in range(3):
    losses[f"epoch{epoch}"] = round(math.exp(-epoch), 4)
print(losses, list(losses.keys()), sum(losses.values()) > 1)
print({k: v * 2 for k, v in losses.items() if v < 1})
squares = [n * n for n in range(10) if n % 3 == 0]
pairs = [(a, b) for a in range(3) for b in range(a)]
print(squares, pairs, len(pairs))
print([float(t) for t in torch.tensor([0.5, 1.5])], all(t > 0 for t in x.detach()), any([0, 0.0, None]))
print(max([3, 9, 2]), min(4, 1, 7), sorted([3, 1, 2], reverse=True), list(zip("ab", [1, 2])))

n, steps = 27, 0
while n != 1:
    n = n // 2 if n % 2 == 0 else 3 * n + 1
    steps += 1
print(steps)

grads = []
for scale in (1.0, 2.0):
    z = torch.tensor([1.0, 2.0], requires_grad=True)
    (scale * z ** 2).sum().backward()
    grads.append(z.grad.tolist())
print(grads, x.grad is None, w.grad is not None, 2 in [1, 2], "a" not in {"a": 1})
big = range(10 ** 12)
print(big, big[-1], len(range(0, 10, 3)))
