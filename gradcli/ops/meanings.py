"""Names people write that the op table does not have, and what to write instead.

An unknown function's error looks here first (by meaning: `logistic` is `sigmoid`), then for
a name one typo away (by spelling). A name that a row of the table takes is never looked up
here: the row wins. The hints that name a function name one of the table (a test holds them
to it).
"""

from __future__ import annotations

RANDOM = "random tensors are not supported: give the values with --at (or tensor([...]), ones(...), arange(...))"
IN_PLACE = "in-place ops are not supported: assign the result instead, as in x = relu(x)"
COMPLEX = "complex numbers are not supported"

# name -> (the function meant, or None) and what to say
MEANINGS: dict[str, tuple[str | None, str]] = {
    "logistic": ("sigmoid", ""),
    "log_sigmoid": ("logsigmoid", ""), "logsoftmax": ("log_softmax", ""),
    "cbrt": (None, "PyTorch has no cbrt: write sign(x) * abs(x) ** (1/3)"),
    "sqr": ("square", ""), "pow2": ("square", ""),
    "step": ("heaviside", "heaviside(x, 0.5) is the step; its gradient is 0"),
    "mse": ("mse_loss", ""), "mean_squared_error": ("mse_loss", ""), "l1": ("l1_loss", ""),
    "mae": ("l1_loss", ""), "huber": ("huber_loss", ""), "bce": ("binary_cross_entropy", ""),
    "bce_with_logits": ("binary_cross_entropy_with_logits", ""),
    "sigmoid_cross_entropy": ("binary_cross_entropy_with_logits", ""),
    "l2_norm": ("norm", ""), "frobenius_norm": ("norm", "norm(m) is the Frobenius norm of a matrix"),
    "sum_of_squares": ("sum", "write sum(x**2)"), "sumsq": ("sum", "write sum(x**2)"),
    "determinant": ("det", ""), "matrix_inverse": ("inv", ""),
    "rand": (None, RANDOM), "randn": (None, RANDOM), "randint": (None, RANDOM), "rand_like": (None, RANDOM),
    "randn_like": (None, RANDOM), "normal": (None, RANDOM), "uniform": (None, RANDOM),
    "bernoulli": (None, RANDOM), "multinomial": (None, RANDOM), "manual_seed": (None, RANDOM),
    **{f"{name}_": (None, IN_PLACE.replace("relu", name)) for name in ("relu", "add", "mul", "sub", "div", "clamp",
                                                                        "sigmoid", "tanh", "exp", "pow", "neg")},
    "zero_": (None, IN_PLACE), "fill_": (None, IN_PLACE), "copy_": (None, IN_PLACE),
    "complex": (None, COMPLEX), "imag": (None, COMPLEX), "polar": (None, COMPLEX), "view_as_complex": (None, COMPLEX),
    "eig": (None, "the eigendecomposition of a general matrix is complex: not supported; torch.linalg.eigh "
                  "takes a symmetric one"),
    "numel": (None, "shapes are fixed by the values given (--at): a program has no sizes to ask for"),
    "size": (None, "shapes are fixed by the values given (--at): a program has no sizes to ask for"),
    "len": (None, "shapes are fixed by the values given (--at): a program has no sizes to ask for"),
    "range": (None, "loops are not supported; arange(n) makes the numbers 0 ... n-1"),
    "print": (None, "a program's output is its last statement; `gradcli run FILE.py` runs PyTorch code that prints"),
}


def meaning(name: str) -> str | None:
    """What to say of an unknown function by its meaning, or None."""
    found = MEANINGS.get(name)
    if found is None:
        return None
    target, said = found
    if target is None:
        return said
    return f"it is '{target}' here" + (f": {said}" if said else "")
