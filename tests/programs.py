"""Random well-formed programs, for property tests: every op used inside its domain."""

from __future__ import annotations

import numpy as np

# Ops that are smooth and finite on the whole line (on inputs kept in [-2, 2] and results bounded).
SMOOTH_UNARY = ["sin", "cos", "tanh", "sigmoid", "atan", "softplus", "exp"]
SMOOTH_BINARY = ["+", "-", "*"]


def random_program(rng: np.random.Generator, inputs: list[str], statements: int = 4, vector: bool = False) -> str:
    """A program of a few statements that reuses inputs and intermediates along several paths."""
    names = list(inputs)
    lines = []
    for number in range(statements):
        terms = []
        for _ in range(int(rng.integers(1, 3))):
            a, b = rng.choice(names, size=2)
            op = SMOOTH_UNARY[int(rng.integers(len(SMOOTH_UNARY)))]
            binary = SMOOTH_BINARY[int(rng.integers(len(SMOOTH_BINARY)))]
            # tanh keeps exp and products from growing without bound
            terms.append(f"{op}(tanh({a}) {binary} {b} * 0.5)")
        name = f"t{number}"
        lines.append(f"{name} = " + " + ".join(terms))
        names.append(name)
    out = f"{names[-1]} * {rng.choice(names[:-1])}"
    lines.append(f"sum({out})" if vector else out)
    return "\n".join(lines)
