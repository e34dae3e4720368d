# An assert in a training loop fails as Python fails it: what was printed before, then AssertionError.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
for step in range(5):
    loss = (w ** 2).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.25 * w.grad
    w.grad = None
    print(step, loss.item())
    assert loss.item() > 1, f"loss too small at step {step}"
