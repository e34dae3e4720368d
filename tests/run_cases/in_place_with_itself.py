# An in-place op whose other argument is the tensor itself (y.mul_(y), y *= y, y.addcmul_(y, y), y.div_(y), y.pow_(y)):
# PyTorch's node saved that argument, which the write itself makes stale, so backward is its version error (gradcli
# answered with gradients). y.add_(y) saves nothing and y.mul_(y.detach()) a copy: those answer. Found by
# fuzz/programs.py --family inplace.
import torch
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y.mul_(y)
    print(y.grad_fn)
    y.sum().backward()
    print('y.mul_(y)', x.grad)
except RuntimeError as e:
    print('y.mul_(y)', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y.addcmul_(y, y, value=0.5)
    print(y.grad_fn)
    y.sum().backward()
    print('y.addcmul_(y, y, value=0.5)', x.grad)
except RuntimeError as e:
    print('y.addcmul_(y, y, value=0.5)', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y.add_(y)
    print(y.grad_fn)
    y.sum().backward()
    print('y.add_(y)', x.grad)
except RuntimeError as e:
    print('y.add_(y)', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y.sub_(y, alpha=2)
    print(y.grad_fn)
    y.sum().backward()
    print('y.sub_(y, alpha=2)', x.grad)
except RuntimeError as e:
    print('y.sub_(y, alpha=2)', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y.div_(y)
    print(y.grad_fn)
    y.sum().backward()
    print('y.div_(y)', x.grad)
except RuntimeError as e:
    print('y.div_(y)', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y *= y
    print(y.grad_fn)
    y.sum().backward()
    print('y *= y', x.grad)
except RuntimeError as e:
    print('y *= y', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y += y
    print(y.grad_fn)
    y.sum().backward()
    print('y += y', x.grad)
except RuntimeError as e:
    print('y += y', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y.copy_(y)
    print(y.grad_fn)
    y.sum().backward()
    print('y.copy_(y)', x.grad)
except RuntimeError as e:
    print('y.copy_(y)', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y.pow_(y)
    print(y.grad_fn)
    y.sum().backward()
    print('y.pow_(y)', x.grad)
except RuntimeError as e:
    print('y.pow_(y)', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y.addcdiv_(y, y.abs() + 1)
    print(y.grad_fn)
    y.sum().backward()
    print('y.addcdiv_(y, y.abs() + 1)', x.grad)
except RuntimeError as e:
    print('y.addcdiv_(y, y.abs() + 1)', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y.lerp_(y, 0.5)
    print(y.grad_fn)
    y.sum().backward()
    print('y.lerp_(y, 0.5)', x.grad)
except RuntimeError as e:
    print('y.lerp_(y, 0.5)', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y.masked_fill_(y > 0, 1.)
    print(y.grad_fn)
    y.sum().backward()
    print('y.masked_fill_(y > 0, 1.)', x.grad)
except RuntimeError as e:
    print('y.masked_fill_(y > 0, 1.)', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y.mul_(y.detach())
    print(y.grad_fn)
    y.sum().backward()
    print('y.mul_(y.detach())', x.grad)
except RuntimeError as e:
    print('y.mul_(y.detach())', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y.clamp_(min=y.detach())
    print(y.grad_fn)
    y.sum().backward()
    print('y.clamp_(min=y.detach())', x.grad)
except RuntimeError as e:
    print('y.clamp_(min=y.detach())', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y.atan2_(y)
    print(y.grad_fn)
    y.sum().backward()
    print('y.atan2_(y)', x.grad)
except RuntimeError as e:
    print('y.atan2_(y)', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y.hypot_(y)
    print(y.grad_fn)
    y.sum().backward()
    print('y.hypot_(y)', x.grad)
except RuntimeError as e:
    print('y.hypot_(y)', str(e)[:200])
x = torch.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = x.relu() + 0.5
try:
    y.maximum(y)
    print(y.grad_fn)
    y.sum().backward()
    print('y.maximum(y)', x.grad)
except RuntimeError as e:
    print('y.maximum(y)', str(e)[:200])
