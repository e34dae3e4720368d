"""A long `gradcli run` loop costs each step what its first steps cost: a backward walks, and keeps the adjoints
of, the nodes its roots reach, not the whole tape that every earlier step left behind."""

from __future__ import annotations

import io
import tracemalloc

from gradcli.run.interpreter import run

LOOP = """import torch
x = torch.linspace(-2, 2, 64)
y = 3 * x - 1
w = torch.tensor(0.0, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
for step in range(STEPS):
    loss = ((w * x + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
    w.grad.zero_()
    b.grad.zero_()
print(round(w.item(), 4), round(b.item(), 4))
"""


def _peak(steps: int) -> tuple[str, int]:
    out = io.StringIO()
    tracemalloc.start()
    try:
        run(LOOP.replace("STEPS", str(steps)), out)
        return out.getvalue(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_memory_of_a_training_loop_grows_with_its_steps_not_with_their_square():
    _peak(20)  # (what the first run of a process loads and caches, out of the figures)
    printed, small = _peak(200)
    assert printed.split() != ["0.0", "0.0"]  # (it trained)
    printed, large = _peak(800)
    assert printed == "3.0 -1.0\n"  # (it converged: w=3, b=-1, as PyTorch's 800 steps give)
    assert large < 6 * small  # (4x the steps: 4x the memory; with a list as long as the tape per backward, 9.6x)
