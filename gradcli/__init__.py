"""gradcli: gradients you can trust and understand, from a formula and a point.

>>> from gradcli import grad
>>> result = grad("log(x1*x2)*sin(x2)", at={"x1": 0.5, "x2": 0.75})
>>> [round(float(g), 4) for g in result.grad.values()]
[1.3633, 0.1912]
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gradcli.derivatives import GradResult, grad
    from gradcli.engine import backward, forward
    from gradcli.errors import ExitCode, GradcliError
    from gradcli.tape import Tape, compile_program

# Imported when first asked for (PEP 562): `import gradcli` alone, which the command line does
# first, loads no NumPy, so the command decides how NumPy starts (see __main__).
_FROM = {"GradResult": "derivatives", "grad": "derivatives", "backward": "engine", "forward": "engine",
         "ExitCode": "errors", "GradcliError": "errors", "Tape": "tape", "compile_program": "tape"}


def __getattr__(name: str) -> object:
    if name not in _FROM:
        raise AttributeError(f"module 'gradcli' has no attribute {name!r}")
    import gc
    import importlib

    # Importing NumPy makes tens of thousands of objects and none of them cycles; the cycle
    # collector would walk them again and again as they pile up (~10% of the import).
    collecting = gc.isenabled()
    gc.disable()
    try:
        module = importlib.import_module(f"gradcli.{_FROM[name]}")
    finally:
        if collecting:
            # What the import made lives as long as the process: straight to the oldest generation, or the
            # first collection after would walk all of it at once. Not where the process froze objects
            # itself: unfreeze would thaw them too (a forking server's pages).
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()
    value = getattr(module, name)
    globals()[name] = value
    return value


def grad_table(program: "str | Tape", table: object, at: object = None, seed: object = None,
               **options: object) -> object:
    """The value and gradient at every row of a pandas/polars DataFrame or an Arrow table: see gradcli.frames."""
    from gradcli.frames import grad_table as table_grad  # pyarrow only for those who ask

    return table_grad(program, table, at, seed, **options)  # type: ignore[arg-type]


__all__ = ["ExitCode", "GradResult", "GradcliError", "Tape", "backward", "compile_program", "forward", "grad",
           "grad_table"]
__version__ = "0.1.0"
