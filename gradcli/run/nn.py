"""torch.nn and torch.optim for `gradcli run`: modules, parameters and optimizers of small models,
as PyTorch 2.13 has them.

A module is a Module: its parameters, its child modules and its other attributes in the order they
were set (PyTorch's `_parameters`, `_modules`, `__dict__`), its training flag; a file's own
`nn.Module` subclass is a Module whose class is the file's (gradcli.run.python.UserClass). The
modules of torch.nn are subclasses here whose forward calls the op table through the interpreter,
so their graphs are the functional ops' graphs. Linear's weight and bias are drawn from the run's
generator as PyTorch's reset_parameters draws them (kaiming_uniform_(a=sqrt(5)), then the bias
uniform in +-1/sqrt(fan_in)). The optimizers update the parameters in place, in float32, in the
order of PyTorch's single-tensor CPU loops (`_single_tensor_sgd`, `_single_tensor_adam`; foreach
is the default on CUDA only), with the fused multiply-adds of its vectorised kernels.
"""

from __future__ import annotations

import ast
import copy
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from gradcli.lowering import legacy_reduction
from gradcli.ops.core import NUMPY
from gradcli.ops.core import fma32 as _fma32
from gradcli.ops.float32 import fma64
from gradcli.run.python import Lazy, PythonError, UserClass, bind_by_name
from gradcli.run.stdlib import OrderedDict
from gradcli.run.tensor import FLOAT32, FLOAT64, Tensor, TorchError, runtime_error

if TYPE_CHECKING:
    from gradcli.run.interpreter import Interpreter

Args = list[Any]
Kwargs = dict[str, Any]


def _bind(function: str, names: list[str], defaults: dict[str, Any], args: Args, kwargs: Kwargs,
          positional: int | None = None) -> dict[str, Any]:
    """Python's binding of a native call's arguments, with its TypeErrors; only the first `positional` names
    by position (the rest keyword-only: GaussianNLLLoss(*, full, eps, reduction))."""
    taken = len(names) if positional is None else positional
    if len(args) > taken:
        least = 1 + sum(name not in defaults for name in names[:taken])  # (self, and those without a default)
        if least == taken + 1:
            raise PythonError("TypeError", f"{function}() takes {least} positional argument{'s' if least > 1 else ''} "
                                           f"but {len(args) + 1} were given")
        raise PythonError("TypeError", f"{function}() takes from {least} to {taken + 1} positional arguments but "
                                       f"{len(args) + 1} were given")
    bound = bind_by_name(function, names, args, kwargs)
    missing = [n for n in names if n not in bound and n not in defaults]
    if missing:
        raise PythonError("TypeError", f"{function}() missing {len(missing)} required positional argument"
                                       f"{'s' if len(missing) > 1 else ''}: " + ", ".join(f"'{m}'" for m in missing))
    return {**defaults, **bound}


def parameter(interpreter: Interpreter, data: Tensor, requires_grad: bool = True) -> Tensor:
    """nn.Parameter(t): a leaf of t's values that prints as `Parameter containing:`."""
    made = Tensor(interpreter.graph, np.array(data.data))
    if id(data.data) in interpreter.unset:  # (nn.Parameter(torch.empty(...)): still to be written)
        interpreter.unset[id(made.data)] = made.data
    made.parameter = True
    if requires_grad:
        interpreter.set_requires_grad(made, True)
    return made


# --- modules ---------------------------------------------------------------------------------------


def _indented(text: str, spaces: int) -> str:
    first, *rest = text.split("\n")
    return "\n".join([first, *(" " * spaces + line for line in rest)])


class Module:
    """nn.Module: what PyTorch keeps in `_parameters`, `_modules` and `__dict__`, in order."""

    label = "Module"

    def __init__(self, cls: UserClass | None = None) -> None:
        self.cls = cls
        self.fields: dict[str, Any] = {}
        self.params: dict[str, Tensor | None] = {}
        self.children: dict[str, Module | None] = {}
        self.buffer_values: dict[str, Tensor | None] = {}  # register_buffer's (PyTorch's _buffers)
        self.transient: set[str] = set()  # the buffers registered with persistent=False (not in state_dict)
        self.training = True
        self.initialized = cls is None  # a file's module: after super().__init__()

    def type_name(self) -> str:
        return self.cls.name if self.cls is not None else self.label

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr().split("\n") if self.extra_repr() else []
        children = [f"({key}): {_indented(repr(module), 2)}" for key, module in self.children.items()]
        text = self.type_name() + "("
        if extra and len(extra) == 1 and not children:
            text += extra[0]
        elif extra or children:
            text += "\n  " + "\n  ".join(extra + children) + "\n"
        return text + ")"

    __str__ = __repr__

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        raise TorchError("NotImplementedError", f'Module [{self.type_name()}] is missing the required "forward" function')

    def named_parameters(self, prefix: str = "", seen: set[int] | None = None) -> Iterator[tuple[str, Tensor]]:
        seen = set() if seen is None else seen
        for name, tensor in self.params.items():
            if tensor is not None and id(tensor) not in seen:
                seen.add(id(tensor))
                yield prefix + name, tensor
        for name, child in self.children.items():
            if child is not None:
                yield from child.named_parameters(f"{prefix}{name}.", seen)

    def modules(self) -> Iterator[Module]:
        yield self
        for child in self.children.values():
            if child is not None:
                yield from child.modules()

    def set(self, interpreter: Interpreter, name: str, value: Any) -> None:
        """PyTorch's Module.__setattr__: a Parameter goes to the parameters, a module to the children."""
        if isinstance(value, Tensor) and getattr(value, "parameter", False):
            self.fields.pop(name, None)
            self.children.pop(name, None)
            self.params[name] = value
            if value.name is None:
                value.name = name
        elif name in self.params:
            if value is not None:
                raise TorchError("TypeError", f"cannot assign '{_tensor_type(value)}' as parameter '{name}' "
                                              "(torch.nn.Parameter or None expected)")
            self.params[name] = None
        elif isinstance(value, Module):
            self.fields.pop(name, None)
            self.params.pop(name, None)
            self.children[name] = value
        elif name in self.children:
            if value is not None:
                raise TorchError("TypeError", f"cannot assign '{_tensor_type(value)}' as child module '{name}' "
                                              "(torch.nn.Module or None expected)")
            self.children[name] = None
        elif name in self.buffer_values:
            if value is not None and not isinstance(value, Tensor):
                raise TorchError("TypeError", f"cannot assign '{_tensor_type(value)}' as buffer '{name}' "
                                              "(torch.nn.Buffer, torch.Tensor or None expected)")
            self.buffer_values[name] = value
        elif name == "training":
            self.training = bool(value)
        else:
            self.fields[name] = value


def _tensor_type(value: Any) -> str:
    if isinstance(value, Tensor):
        return {"float32": "torch.FloatTensor", "float64": "torch.DoubleTensor", "int64": "torch.LongTensor",
                "bool": "torch.BoolTensor"}.get(value.data.dtype.name, "torch.Tensor")
    from gradcli.run.python import type_name

    return type_name(value)


def functional(interpreter: Interpreter, name: str, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
    if name in ("softmax", "log_softmax", "softmin"):  # (nn.Softmax() without a dim: PyTorch's implicit choice)
        return interpreter.softmax(name, args, kwargs, node)
    return interpreter.call_op(f"torch.nn.functional.{name}", args, kwargs, node)


def linear(interpreter: Interpreter, x: Tensor, weight: Tensor, bias: Tensor | None, node: ast.AST) -> Any:
    """F.linear: the op table's row, recorded as PyTorch's (AddmmBackward0 for a 2-D input with a bias)."""
    return interpreter.call_op("torch.nn.functional.linear", [x, weight] + ([] if bias is None else [bias]), {}, node)


class Linear(Module):
    label = "Linear"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        bound = _bind("Linear.__init__", ["in_features", "out_features", "bias", "device", "dtype"],
                      {"bias": True, "device": None, "dtype": None}, args, kwargs)
        self.in_features, self.out_features = int(bound["in_features"]), int(bound["out_features"])
        self.draw(interpreter, bound["dtype"].numpy if bound["dtype"] is not None else FLOAT32, bool(bound["bias"]))

    def draw(self, interpreter: Interpreter, dtype: np.dtype, bias: bool) -> None:
        """The weight and bias, drawn as PyTorch's reset_parameters draws them."""
        generator = interpreter.generator
        weight = np.empty((self.out_features, self.in_features), dtype=dtype)
        fan_in = self.in_features
        if weight.size:
            gain = math.sqrt(2.0 / (1 + math.sqrt(5) ** 2))  # kaiming_uniform_(a=sqrt(5)), leaky_relu's gain
            bound_w = math.sqrt(3.0) * (gain / math.sqrt(fan_in))
            generator.uniform_(weight, -bound_w, bound_w)
        self.set(interpreter, "weight", parameter(interpreter, Tensor(interpreter.graph, weight)))
        if bias:
            values = np.empty((self.out_features,), dtype=dtype)
            limit = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            generator.uniform_(values, -limit, limit)
            self.set(interpreter, "bias", parameter(interpreter, Tensor(interpreter.graph, values)))
        else:
            self.params["bias"] = None

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.params['bias'] is not None}"

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        (x,) = _bind("Linear.forward", ["input"], {}, args, kwargs).values()
        return linear(interpreter, x, self.params["weight"], self.params["bias"], node)  # type: ignore[arg-type]


class UninitializedParameter:
    """A lazy module's parameter before its first forward: PyTorch's UninitializedParameter, which prints as
    `<UninitializedParameter>`; gradcli's run computes nothing with it (the module's first call draws the real one)."""

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    def type_name(self) -> str:
        return "UninitializedParameter"


class LazyLinear(Linear):
    """nn.LazyLinear(out_features): in_features=0 and uninitialized parameters until the first call, which takes
    in_features from the input's last dim, draws the weight and bias as Linear's reset_parameters draws them,
    and the module becomes an nn.Linear (PyTorch's cls_to_become: type(m) is nn.Linear, its repr Linear's)."""

    label = "LazyLinear"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        Module.__init__(self)
        bound = _bind("LazyLinear.__init__", ["out_features", "bias", "device", "dtype"],
                      {"bias": True, "device": None, "dtype": None}, args, kwargs)
        self.in_features, self.out_features = 0, int(bound["out_features"])
        self.dtype = bound["dtype"].numpy if bound["dtype"] is not None else FLOAT32
        self.params["weight"] = UninitializedParameter()  # type: ignore[assignment]
        self.params["bias"] = UninitializedParameter() if bound["bias"] else None  # type: ignore[assignment]

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        if self.label == "LazyLinear":
            (x,) = _bind("Linear.forward", ["input"], {}, args, kwargs).values()
            if not isinstance(x, Tensor) or not x.data.ndim:
                raise interpreter.refuse(node, "the first call of an nn.LazyLinear with an input that is not a tensor "
                                               "of at least one dim is not supported")
            self.in_features = int(x.data.shape[-1])
            self.draw(interpreter, self.dtype, self.params["bias"] is not None)
            self.label = "Linear"
        return Linear.forward(self, interpreter, args, kwargs, node)


def _tuple(value: Any, dims: int) -> tuple[Any, ...]:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * dims


def _conv(dims: int, transposed: bool = False) -> type[Module]:
    """nn.Conv1d / Conv2d / Conv3d and nn.ConvTranspose1d / 2d / 3d: F.conv{dims}d or F.conv_transpose{dims}d with the
    module's settings; weight and bias drawn as PyTorch's _ConvNd.reset_parameters draws them (as Linear's, fan_in =
    the weight's second dimension times the kernel: in_channels / groups, or out_channels / groups when transposed,
    whose weight is (in_channels, out_channels / groups, *kernel_size))."""
    label = f"ConvTranspose{dims}d" if transposed else f"Conv{dims}d"
    names = ["in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups", "bias",
             "padding_mode", "device", "dtype"]
    if transposed:  # (PyTorch's order: output_padding after padding, dilation after bias)
        names = ["in_channels", "out_channels", "kernel_size", "stride", "padding", "output_padding", "groups", "bias",
                 "dilation", "padding_mode", "device", "dtype"]

    class Conv(Module):
        def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
            Module.__init__(self)
            bound = _bind(f"{label}.__init__", names,
                          {"stride": 1, "padding": 0, "output_padding": 0, "dilation": 1, "groups": 1, "bias": True,
                           "padding_mode": "zeros", "device": None, "dtype": None}, args, kwargs)
            where = interpreter.call_node or interpreter.node or ast.Pass()
            if bound["padding_mode"] != "zeros":
                if transposed:
                    raise TorchError("ValueError", f'Only "zeros" padding mode is supported for {label}')
                raise interpreter.refuse(where, f"nn.{label} with padding_mode={bound['padding_mode']!r} is not "
                                                "supported", "padding_mode='zeros', or F.pad before the convolution")
            if transposed and isinstance(bound["padding"], str):
                raise interpreter.refuse(where, f"nn.{label} with padding={bound['padding']!r} is not supported",
                                         "the padding as numbers")
            self.in_channels, self.out_channels = int(bound["in_channels"]), int(bound["out_channels"])
            self.groups = int(bound["groups"])
            if self.groups <= 0:
                raise TorchError("ValueError", "groups must be a positive integer")
            if self.in_channels % self.groups:
                raise TorchError("ValueError", "in_channels must be divisible by groups")
            if self.out_channels % self.groups:
                raise TorchError("ValueError", "out_channels must be divisible by groups")
            self.kernel_size = tuple(int(k) for k in _tuple(bound["kernel_size"], dims))
            self.stride = tuple(int(k) for k in _tuple(bound["stride"], dims))
            padding = bound["padding"]
            self.padding = padding if isinstance(padding, str) else tuple(int(k) for k in _tuple(padding, dims))
            self.dilation = tuple(int(k) for k in _tuple(bound["dilation"], dims))
            self.output_padding = tuple(int(k) for k in _tuple(bound["output_padding"], dims))
            shape = ((self.in_channels, self.out_channels // self.groups, *self.kernel_size) if transposed
                     else (self.out_channels, self.in_channels // self.groups, *self.kernel_size))
            interpreter.check_size(math.prod(shape), where)
            dtype = bound["dtype"].numpy if bound["dtype"] is not None else FLOAT32
            generator = interpreter.generator
            weight = np.empty(shape, dtype=dtype)
            fan_in = math.prod(shape[1:])
            if weight.size:
                gain = math.sqrt(2.0 / (1 + math.sqrt(5) ** 2))  # kaiming_uniform_(a=sqrt(5)), leaky_relu's gain
                generator.uniform_(weight, -math.sqrt(3.0) * (gain / math.sqrt(fan_in)),
                                   math.sqrt(3.0) * (gain / math.sqrt(fan_in)))
            self.set(interpreter, "weight", parameter(interpreter, Tensor(interpreter.graph, weight)))
            if bound["bias"]:
                bias = np.empty((self.out_channels,), dtype=dtype)
                if fan_in:
                    generator.uniform_(bias, -1 / math.sqrt(fan_in), 1 / math.sqrt(fan_in))
                self.set(interpreter, "bias", parameter(interpreter, Tensor(interpreter.graph, bias)))
            else:
                self.params["bias"] = None

        def extra_repr(self) -> str:
            text = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
            if self.padding != (0,) * dims:
                text += f", padding={self.padding}"
            if self.dilation != (1,) * dims:
                text += f", dilation={self.dilation}"
            if self.output_padding != (0,) * dims:
                text += f", output_padding={self.output_padding}"
            if self.groups != 1:
                text += f", groups={self.groups}"
            if self.params["bias"] is None:
                text += ", bias=False"
            return text

        def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
            if not transposed:
                (x,) = _bind(f"{label}.forward", ["input"], {}, args, kwargs).values()
                return interpreter.call_op(
                    f"torch.nn.functional.conv{dims}d", [x, self.params["weight"], self.params["bias"]],
                    {"stride": self.stride, "padding": self.padding, "dilation": self.dilation, "groups": self.groups},
                    node)
            bound = _bind(f"{label}.forward", ["input", "output_size"], {"output_size": None}, args, kwargs)
            x, output_size = bound["input"], bound["output_size"]
            return interpreter.call_op(
                f"torch.nn.functional.conv_transpose{dims}d", [x, self.params["weight"], self.params["bias"]],
                {"stride": self.stride, "padding": self.padding, "output_padding": self._output_padding(x, output_size),
                 "groups": self.groups, "dilation": self.dilation}, node)

        def _output_padding(self, x: Any, output_size: Any) -> tuple[int, ...]:
            """The output_padding that makes the output `output_size` (PyTorch's _ConvTransposeNd._output_padding)."""
            if output_size is None:
                return self.output_padding
            if not isinstance(x, Tensor):
                raise PythonError("AttributeError", f"'{_tensor_type(x)}' object has no attribute 'dim'")
            spatial, batched = x.data.shape[-dims:], x.data.ndim == dims + 2
            sizes = [int(size) for size in output_size]
            if len(sizes) == dims + (2 if batched else 1):
                sizes = sizes[len(sizes) - dims:]
            if len(sizes) != dims:
                raise TorchError("ValueError", f"ConvTranspose{dims}D: for {x.data.ndim}D input, output_size must have "
                                               f"{dims} or {dims + (2 if batched else 1)} elements (got {len(sizes)})")
            least = [(spatial[d] - 1) * self.stride[d] - 2 * self.padding[d] + self.dilation[d] * (self.kernel_size[d] - 1)
                     + 1 for d in range(dims)]
            most = [least[d] + self.stride[d] - 1 for d in range(dims)]
            if any(not least[d] <= sizes[d] <= most[d] for d in range(dims)):
                raise TorchError("ValueError", f"requested an output size of {sizes}, but valid sizes range from {least} "
                                               f"to {most} (for an input of torch.Size({list(spatial)}))")
            return tuple(sizes[d] - least[d] for d in range(dims))

    Conv.label = label
    Conv.__name__ = label
    return Conv


_CONV_FIELDS = ("in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups",
                "output_padding")


class Sequential(Module):
    label = "Sequential"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        if kwargs:
            raise PythonError("TypeError", f"Sequential.__init__() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if len(args) == 1 and isinstance(args[0], OrderedDict):  # nn.Sequential(OrderedDict([(name, module), ...]))
            for key, module in args[0].items():
                if not isinstance(module, Module) and module is not None:
                    raise TorchError("TypeError", f"{_tensor_type(module)} is not a Module subclass")
                self.children[key] = module
            return
        for index, module in enumerate(args):
            if not isinstance(module, Module):
                raise TorchError("TypeError", f"{_tensor_type(module)} is not a Module subclass")
            self.children[str(index)] = module

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        (value,) = _bind("Sequential.forward", ["input"], {}, args, kwargs).values()
        for module in self.children.values():
            value = interpreter.call(module, [value], {}, node)
        return value

    def __len__(self) -> int:
        return len(self.children)

    def item(self, key: Any) -> Any:
        modules = list(self.children.values())
        if isinstance(key, slice):
            made = Sequential.__new__(Sequential)
            Module.__init__(made)
            made.children = dict(list(self.children.items())[key])
            return made
        try:
            return modules[int(key)]
        except IndexError:
            raise TorchError("IndexError", f"index {key} is out of range") from None


class ModuleList(Sequential):
    """nn.ModuleList: children "0", "1", ... (indexing, iteration, len, append, extend, insert); no forward."""

    label = "ModuleList"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        Module.__init__(self)
        given = _bind("ModuleList.__init__", ["modules"], {"modules": None}, args, kwargs)["modules"]
        if given is not None:
            self.extend(interpreter, given)

    def append(self, module: Any) -> None:
        if not isinstance(module, Module):
            raise TorchError("TypeError", f"{_tensor_type(module)} is not a Module subclass")
        self.children[str(len(self.children))] = module

    def extend(self, interpreter: Interpreter, modules: Any) -> None:
        for module in interpreter.collect(modules, interpreter.call_node or interpreter.node or ast.Pass()):
            self.append(module)

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        raise TorchError("NotImplementedError", f'Module [{self.type_name()}] is missing the required "forward" function')

    def __repr__(self) -> str:
        # PyTorch's ModuleList repr: a run of equal children is one line, "(0-2): 3 x Linear(...)"
        shown = [repr(module) for module in self.children.values()]
        if not shown:
            return self.type_name() + "()"
        runs: list[list[Any]] = []
        for index, text in enumerate(shown):
            if runs and runs[-1][2] == text:
                runs[-1][1] = index
            else:
                runs.append([index, index, text])
        lines = [_indented(f"({start}): {text}" if start == end else f"({start}-{end}): {end - start + 1} x {text}", 2)
                 for start, end, text in runs]
        return self.type_name() + "(\n  " + "\n  ".join(lines) + "\n)"

    __str__ = __repr__


class ModuleDict(Module):
    """nn.ModuleDict: children by key (indexing, iteration over the keys, len, in, keys, values, items)."""

    label = "ModuleDict"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        given = _bind("ModuleDict.__init__", ["modules"], {"modules": None}, args, kwargs)["modules"]
        if given is not None:
            pairs = list(given.items()) if isinstance(given, dict) else interpreter.collect(given, interpreter.node or ast.Pass())
            for key, module in pairs:
                if not isinstance(module, Module):
                    raise TorchError("TypeError", f"{_tensor_type(module)} is not a Module subclass")
                self.children[str(key)] = module

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        raise TorchError("NotImplementedError", f'Module [{self.type_name()}] is missing the required "forward" function')

    def item(self, key: Any) -> Any:
        if key not in self.children:
            raise PythonError("KeyError", repr(key))
        return self.children[key]

    def __len__(self) -> int:
        return len(self.children)

    def __contains__(self, key: object) -> bool:
        return key in self.children


# The losses whose __init__ is their base class's, as Python's TypeErrors name it
_INHERITED_INIT = {"MSELoss": "_Loss", "L1Loss": "_Loss", "SoftMarginLoss": "_Loss", "BCELoss": "_WeightedLoss",
                   "MultiLabelSoftMarginLoss": "_WeightedLoss", "MultiLabelMarginLoss": "_Loss"}


def _simple(label: str, function: str, params: list[tuple[str, Any]], shown: list[str] | None = None,
            positional: int | None = None, shows_inplace: bool = True) -> type[Module]:
    """A module that is one functional call with its settings (activations, losses, Flatten); `positional`: how
    many of them its __init__ takes by position (None: all); `shows_inplace`: its repr says inplace=True where
    set (PyTorch's Hardsigmoid and Hardswish have no extra_repr)."""
    names = [name for name, _ in params]
    defaults = dict(params)

    class Simple(Module):
        def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
            Module.__init__(self)
            self.settings = _bind(f"{_INHERITED_INIT.get(label, label)}.__init__", names, defaults, args, kwargs,
                                  positional)
            if "size_average" in self.settings:  # (a loss: _Loss.__init__ keeps only the reduction they make)
                _legacy_reduction(interpreter, self.settings)
            for name, value in self.settings.items():
                self.fields[name] = value

        def extra_repr(self) -> str:
            listed = list(names if shown is None else shown)
            if self.settings.get("inplace") and "inplace" not in listed and shows_inplace:  # (PyTorch shows it only when set)
                listed.append("inplace")
            return ", ".join(f"{name}={self.settings[name]!r}" if isinstance(self.settings[name], str)
                             else f"{name}={self.settings[name]}" for name in listed)

        def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
            # (its settings as they are now: `loss.reduction = 'none'` after construction changes the call)
            settings = {name: self.fields.get(name, value) for name, value in self.settings.items()}
            if settings.get("inplace"):  # nn.ReLU(inplace=True): its input takes the values (F.relu(x, inplace=True))
                return interpreter.activation_in_place(function, list(args), {**_clean(settings), **kwargs,
                                                                               "inplace": True}, node)
            return functional(interpreter, function, args, {**_clean(settings), **kwargs}, node)

    Simple.label = label
    Simple.__name__ = label
    return Simple


def _legacy_reduction(interpreter: Interpreter, settings: dict[str, Any]) -> None:
    """A loss module's size_average and reduce, taken out of its settings: given (not None), they make its reduction
    as PyTorch's _Loss.__init__ makes it (lowering.legacy_reduction), with PyTorch's warning."""
    node = interpreter.call_node or interpreter.node or ast.Pass()
    legacy = [settings.pop(name) for name in ("size_average", "reduce")]
    if all(value is None for value in legacy):
        return
    settings["reduction"] = legacy_reduction(*(None if value is None else interpreter.truth(value, node)
                                               for value in legacy))
    interpreter.warn("UserWarning", f"size_average and reduce args will be deprecated, please use "
                                    f"reduction='{settings['reduction']}' instead.", node, where="_Loss.__init__")


class Identity(Module):
    """nn.Identity, argument-insensitive as PyTorch's: its __init__ takes any arguments and keeps none (a model that
    picks `norm_layer(size)` among nn.BatchNorm1d and nn.Identity); its forward returns its one input itself."""

    label = "Identity"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        return _bind("Identity.forward", ["input"], {}, args, kwargs)["input"]


class Dropout(Module):
    label = "Dropout"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        self.settings = _bind("Dropout.__init__", ["p", "inplace"], {"p": 0.5, "inplace": False}, args, kwargs)
        self.fields.update(self.settings)

    def extra_repr(self) -> str:
        return f"p={self.settings['p']}, inplace={self.settings['inplace']}"

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        (x,) = _bind("Dropout.forward", ["input"], {}, args, kwargs).values()
        return interpreter.dropout([x, self.settings["p"], self.training, self.settings["inplace"]], {}, node)


def _intervals(sample: Any, size: int, out: int, pool: int, kind: type) -> list[int]:
    """ATen's generate_intervals: where each of `out` pooling windows starts along a dim of `size`, from one uniform
    `sample`, in the input's float type (float32 arithmetic for a float32 input)."""
    starts = [0] * out
    if out > 1:
        alpha = kind(size - pool) / kind(out - 1)
        for i in range(out - 1):
            starts[i] = int(kind((kind(i) + sample) * alpha)) - int(kind(sample * alpha))
    if out > 0:
        starts[out - 1] = size - pool
    return starts


def fractional_max_pool2d(interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
    """F.fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
    _random_samples=None) as PyTorch's: two uniforms per (batch, channel) drawn with torch.rand where none are given,
    the windows' starts from them (ATen's generate_intervals), the first largest element of each window (the last NaN where there is one);
    one FractionalMaxPool2DBackward0 node, its gradient scattered to those elements."""
    from gradcli.run.custom import native_node

    bound = _bind("fractional_max_pool2d", ["input", "kernel_size", "output_size", "output_ratio", "return_indices",
                                            "_random_samples"],
                  {"output_size": None, "output_ratio": None, "return_indices": False, "_random_samples": None},
                  args, kwargs)
    x = bound["input"]
    if not isinstance(x, Tensor) or x.data.dtype.kind != "f" or x.data.ndim not in (3, 4):
        raise interpreter.refuse(node, "fractional_max_pool2d of other than a 3-D or 4-D float tensor is not supported")
    kernel = _tuple(bound["kernel_size"], 2)
    if bound["output_size"] is None and bound["output_ratio"] is None:
        raise TorchError("ValueError", "fractional_max_pool2d requires specifying either an output_size or an "
                                       "output_ratio")
    height, width = x.data.shape[-2:]
    if bound["output_size"] is None:
        given = bound["output_ratio"]
        if not isinstance(given, (tuple, list)):  # (F's len(output_ratio), before its _pair)
            raise PythonError("TypeError", f"object of type '{_tensor_type(given)}' has no len()")
        if len(given) > 2:
            raise TorchError("ValueError", "fractional_max_pool2d requires output_ratio to either be a single Int or "
                                           "tuple of Ints.")
        ratio = _tuple(given, 2)
        out_h, out_w = int(height * ratio[0]), int(width * ratio[1])
    else:
        out_h, out_w = (int(n) for n in _tuple(bound["output_size"], 2))
    kh, kw = (int(k) for k in kernel)
    if out_h + kh - 1 > height:
        raise runtime_error(f"fractional_max_pool2d(): pool height {kh} too large relative to input height {height}")
    if out_w + kw - 1 > width:
        raise runtime_error(f"fractional_max_pool2d(): pool width {kw} too large relative to input width {width}")
    batched = x.data.ndim == 4
    data = x.data if batched else x.data[None]
    samples = bound["_random_samples"]
    if samples is None:
        draws = interpreter.generator.rand((data.shape[0], data.shape[1], 2), x.data.dtype)
    elif isinstance(samples, Tensor):
        draws = samples.data
    else:
        raise interpreter.refuse(node, "fractional_max_pool2d's _random_samples must be a tensor here")
    kind = x.data.dtype.type
    interpreter.check_items(data.shape[0] * data.shape[1] * out_h * out_w * kh * kw, node)
    out = np.empty((*data.shape[:2], out_h, out_w), dtype=data.dtype)
    where = np.empty(out.shape, dtype=np.int64)
    for b in range(data.shape[0]):
        for c in range(data.shape[1]):
            rows = _intervals(kind(draws[b, c, 1]), height, out_h, kh, kind)
            cols = _intervals(kind(draws[b, c, 0]), width, out_w, kw, kind)
            hs = np.asarray(rows)[:, None] + np.arange(kh)  # (out_h, kh): each window's rows
            ws = np.asarray(cols)[:, None] + np.arange(kw)
            window = data[b, c][hs[:, None, :, None], ws[None, :, None, :]].reshape(out_h, out_w, kh * kw)
            place = (hs[:, None, :, None] * width + ws[None, :, None, :]).reshape(out_h, out_w, kh * kw)
            nan = np.isnan(window)  # (ATen's `val > maxVal || isnan(val)`: the first largest, or the last NaN)
            pick = np.where(nan.any(-1), kh * kw - 1 - np.argmax(nan[..., ::-1], -1), np.argmax(window, -1))[..., None]
            out[b, c] = np.take_along_axis(window, pick, -1)[..., 0]
            where[b, c] = np.take_along_axis(place, pick, -1)[..., 0]
    if not batched:
        out, where = out[0], where[0]
    indices = Tensor(interpreter.graph, where)
    if interpreter.graph.grad_enabled and x.requires_grad:
        flat_shape = (*x.data.shape[:-2], height * width)

        def vjp(g: np.ndarray) -> tuple[Any]:
            grad = np.zeros(flat_shape, dtype=x.data.dtype)
            lead = int(np.prod(flat_shape[:-1]))
            np.add.at(grad.reshape(lead, -1), (np.arange(lead)[:, None], where.reshape(lead, -1)), g.reshape(lead, -1))
            return (grad.reshape(x.data.shape),)

        result = native_node(interpreter.graph, "fractional_max_pool2d", "FractionalMaxPool2DBackward0", [x], out, vjp,
                             interpreter.span(node))
    else:
        result = Tensor(interpreter.graph, out)
    return (result, indices) if bound["return_indices"] else result


class FractionalMaxPool2d(Module):
    label = "FractionalMaxPool2d"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        bound = _bind("FractionalMaxPool2d.__init__", ["kernel_size", "output_size", "output_ratio", "return_indices",
                                                       "_random_samples"],
                      {"output_size": None, "output_ratio": None, "return_indices": False, "_random_samples": None},
                      args, kwargs)
        if bound["output_size"] is None and bound["output_ratio"] is None:
            raise TorchError("ValueError", "FractionalMaxPool2d requires specifying either an output size, or a pooling "
                                           "ratio")
        if bound["output_size"] is not None and bound["output_ratio"] is not None:
            raise TorchError("ValueError", "only one of output_size and output_ratio may be specified")
        ratio = None if bound["output_ratio"] is None else _tuple(bound["output_ratio"], 2)
        if ratio is not None and not (0 < ratio[0] < 1 and 0 < ratio[1] < 1):
            raise TorchError("ValueError", f"output_ratio must be between 0 and 1 (got {bound['output_ratio']})")
        self.fields.update(kernel_size=_tuple(bound["kernel_size"], 2), return_indices=bool(bound["return_indices"]),
                           output_size=None if bound["output_size"] is None else _tuple(bound["output_size"], 2),
                           output_ratio=ratio)
        self.buffer_values["_random_samples"] = bound["_random_samples"]

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        (x,) = _bind("FractionalMaxPool2d.forward", ["input"], {}, args, kwargs).values()
        f = self.fields
        return fractional_max_pool2d(interpreter, [x, f["kernel_size"], f["output_size"], f["output_ratio"],
                                                   f["return_indices"], self.buffer_values["_random_samples"]], {}, node)


def rrelu(interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
    """F.rrelu(input, lower=1/8, upper=1/3, training=False) as ATen's CPU kernel: in training, each element <= 0
    times a slope drawn uniform in [lower, upper] (a 64-bit draw per such element, in order), in eval the mean slope
    (leaky_relu's); one RreluWithNoiseBackward0 node, its gradient the slopes'."""
    from gradcli.run.custom import native_node
    from gradcli.run.random import _fma

    bound = _bind("rrelu", ["input", "lower", "upper", "training", "inplace"],
                  {"lower": 1.0 / 8.0, "upper": 1.0 / 3.0, "training": False, "inplace": False}, args, kwargs)
    x = bound["input"]
    if not isinstance(x, Tensor) or x.data.dtype.kind != "f":
        raise interpreter.refuse(node, f"rrelu of a {_tensor_type(x)} is not supported")
    if bound["inplace"]:
        raise interpreter.refuse(node, "rrelu in place (inplace=True, F.rrelu_) is not supported")
    lower, upper = float(bound["lower"]), float(bound["upper"])
    if lower > upper:
        raise runtime_error("Lower bound should be less than or equal to the upper bound")
    data = x.data
    kind = data.dtype.type
    if bound["training"]:
        slopes = np.ones(data.size, dtype=data.dtype)
        negative = (data <= 0).reshape(-1)
        draws = interpreter.generator.unit(int(negative.sum()), FLOAT64)
        slopes[negative] = _fma(draws, upper - lower, lower, FLOAT64).astype(data.dtype)
        slopes = slopes.reshape(data.shape)
        out = (data * slopes).astype(data.dtype)
    else:
        slope = kind((lower + upper) / 2)
        slopes = np.where(data > 0, kind(1), slope).astype(data.dtype)
        out = np.where(data > 0, data, data * slope).astype(data.dtype)
    if not (interpreter.graph.grad_enabled and x.requires_grad):
        return Tensor(interpreter.graph, out)
    return native_node(interpreter.graph, "rrelu", "RreluWithNoiseBackward0", [x], out,
                       lambda g: ((g * slopes).astype(data.dtype),), interpreter.span(node))


class RReLU(Module):
    label = "RReLU"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        self.fields.update(_bind("RReLU.__init__", ["lower", "upper", "inplace"],
                                 {"lower": 1.0 / 8.0, "upper": 1.0 / 3.0, "inplace": False}, args, kwargs))

    def extra_repr(self) -> str:
        return f"lower={self.fields['lower']}, upper={self.fields['upper']}" + (
            ", inplace=True" if self.fields["inplace"] else "")

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        (x,) = _bind("RReLU.forward", ["input"], {}, args, kwargs).values()
        return rrelu(interpreter, [x, self.fields["lower"], self.fields["upper"], self.training,
                                   self.fields["inplace"]], {}, node)


class Embedding(Module):
    """nn.Embedding: a weight of num_embeddings rows drawn N(0, 1) from torch's generator (the padding
    row zeroed), looked up by F.embedding."""

    label = "Embedding"
    _names: ClassVar[list[str]] = ["num_embeddings", "embedding_dim", "padding_idx", "max_norm", "norm_type",
                                   "scale_grad_by_freq", "sparse", "_weight", "_freeze", "device", "dtype"]
    _defaults: ClassVar[dict[str, Any]] = {"padding_idx": None, "max_norm": None, "norm_type": 2.0,
                                           "scale_grad_by_freq": False, "sparse": False, "_weight": None,
                                           "_freeze": False, "device": None, "dtype": None}

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        bound = _bind("Embedding.__init__", self._names, self._defaults, args, kwargs)
        count, width = int(bound["num_embeddings"]), int(bound["embedding_dim"])
        padding = bound["padding_idx"]
        if padding is not None:
            padding = int(padding)
            if padding > 0 and padding >= count:
                raise PythonError("AssertionError", "Padding_idx must be within num_embeddings")
            if padding < 0:
                if padding < -count:
                    raise PythonError("AssertionError", "Padding_idx must be within num_embeddings")
                padding += count
        if bound["_weight"] is not None:
            raise interpreter.refuse(interpreter.call_node or interpreter.node or ast.Pass(),
                                     "nn.Embedding(..., _weight=...) is not supported")
        if bound["sparse"]:
            raise interpreter.refuse(interpreter.call_node or interpreter.node or ast.Pass(),
                                     "nn.Embedding(..., sparse=True) is not supported (sparse gradients)")
        if count < 0 or width < 0:
            raise runtime_error(f"Trying to create tensor with negative dimension {min(count, width)}: "
                                f"[{count}, {width}]")
        interpreter.check_items(count * width, interpreter.call_node or interpreter.node or ast.Pass())
        weight = np.empty((count, width), dtype=bound["dtype"].numpy if bound["dtype"] is not None else FLOAT32)
        interpreter.generator.normal_(weight)
        if padding is not None:
            weight[padding] = 0
        self.settings = {"num_embeddings": count, "embedding_dim": width, "padding_idx": padding,
                         "max_norm": bound["max_norm"], "norm_type": bound["norm_type"],
                         "scale_grad_by_freq": bound["scale_grad_by_freq"], "sparse": False}
        self.fields.update(self.settings)
        self.set(interpreter, "weight", parameter(interpreter, Tensor(interpreter.graph, weight), not bound["_freeze"]))

    def extra_repr(self) -> str:
        text = f"{self.settings['num_embeddings']}, {self.settings['embedding_dim']}"
        if self.settings["padding_idx"] is not None:
            text += f", padding_idx={self.settings['padding_idx']}"
        if self.settings["max_norm"] is not None:
            text += f", max_norm={self.settings['max_norm']}"
        if self.settings["norm_type"] != 2:
            text += f", norm_type={self.settings['norm_type']}"
        if self.settings["scale_grad_by_freq"] is not False:
            text += f", scale_grad_by_freq={self.settings['scale_grad_by_freq']}"
        return text

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        (x,) = _bind("Embedding.forward", ["input"], {}, args, kwargs).values()
        settings = {"padding_idx": self.settings["padding_idx"]} if self.settings["padding_idx"] is not None else {}
        if self.settings["scale_grad_by_freq"]:
            settings["scale_grad_by_freq"] = True
        if self.settings["max_norm"] is not None:  # (the weight renormalized in place first, as F.embedding does)
            settings.update(max_norm=self.settings["max_norm"], norm_type=self.settings["norm_type"])
        return interpreter.embedding([x, self.params["weight"]], settings, node)


def _pool(label: str, function: str, params: list[tuple[str, Any]], shown: list[str], single: bool = False,
          base: str = "") -> type[Module]:
    """nn.MaxPool1d/2d/3d, AvgPool1d/2d/3d, AdaptiveAvgPool/AdaptiveMaxPool: F.<function> with the module's
    settings; a stride left out is the kernel's (as PyTorch's __init__ sets it), AvgPool1d keeps 1-tuples."""
    names = [name for name, _ in params]
    defaults = {name: value for name, value in params if name not in ("kernel_size", "output_size")}

    class Pool(Module):
        def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
            Module.__init__(self)
            self.settings = _bind(f"{base or label}.__init__", names, defaults, args, kwargs)
            if "stride" in self.settings and self.settings["stride"] is None:
                self.settings["stride"] = self.settings["kernel_size"]
            if single:
                for name in ("kernel_size", "stride", "padding"):
                    self.settings[name] = _tuple(self.settings[name], 1)
            self.fields.update(self.settings)

        def extra_repr(self) -> str:
            return ", ".join(f"{name}={self.settings[name]}" for name in shown)

        def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
            (x,) = _bind(f"{label}.forward", ["input"], {}, args, kwargs).values()
            return interpreter.call_op(f"torch.nn.functional.{function}", [x], _clean(self.settings), node)

    Pool.label = label
    Pool.__name__ = label
    return Pool


def _padding(mode: str, dims: int, zero: bool = False) -> type[Module]:
    """nn.ReflectionPad1d/2d/3d, ReplicationPad, ConstantPad (padding, value) and ZeroPad (padding):
    F.pad(input, self.padding, mode[, value]), the padding an int made a tuple of 2 * dims as PyTorch's _ntuple
    makes it (a tuple or list: as given, a tuple)."""
    label = f"{'Zero' if zero else mode.capitalize()}Pad{dims}d"  # (CircularPad1d/2d/3d too)
    if mode == "reflect":
        label = f"ReflectionPad{dims}d"
    elif mode == "replicate":
        label = f"ReplicationPad{dims}d"

    class Pad(Module):
        def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
            Module.__init__(self)
            names = ["padding", "value"] if mode == "constant" and not zero else ["padding"]
            bound = _bind(f"{label}.__init__", names, {}, args, kwargs)
            padding = bound["padding"]
            self.padding = tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * (2 * dims)
            self.value = 0.0 if zero else bound.get("value")
            self.fields["padding"] = self.padding
            if mode == "constant":
                self.fields["value"] = self.value

        def extra_repr(self) -> str:
            if mode == "constant" and not zero:
                return f"padding={self.padding}, value={self.value}"
            return f"{self.padding}"

        def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
            (x,) = _bind(f"{label}.forward", ["input"], {}, args, kwargs).values()
            padding = self.fields.get("padding", self.padding)
            extra = [self.fields.get("value", self.value)] if mode == "constant" else []
            if mode == "circular" and isinstance(x, Tensor):
                return pad_circular(interpreter, x, padding, node)
            return interpreter.call_op("torch.nn.functional.pad", [x, padding, mode, *extra], {}, node)

    Pad.label = label
    Pad.__name__ = label
    return Pad


def pad_circular(interpreter: Interpreter, x: Tensor, pad: Any, node: ast.AST) -> Any:
    """F.pad(x, pad, mode='circular') as ATen's _pad_circular: a new tensor, x's (cropped) values copied into its
    middle, then each padded dim's wrap copied from the new tensor itself, left then right, the last dim first
    (narrow(...).copy_(...): the CopySlices over SliceBackward0 PyTorch records)."""
    from gradcli.run.interpreter import Method

    pads = [int(p) for p in pad]
    count = len(pads) // 2
    shape = x.data.shape
    if len(pads) % 2 or count not in (1, 2, 3) or x.data.ndim not in (count + 1, count + 2):
        # (PyTorch's words for a padding it takes in no mode but constant: replicate's)
        return interpreter.call_op("torch.nn.functional.pad", [x, pad, "replicate"], {}, node)
    dims = [x.data.ndim - 1 - i for i in range(count)]
    for i, dim in enumerate(dims):
        if pads[2 * i] > shape[dim] or pads[2 * i + 1] > shape[dim]:
            raise runtime_error("Padding value causes wrapping around more than once.")
    out_shape = list(shape)
    for i, dim in enumerate(dims):
        out_shape[dim] = shape[dim] + pads[2 * i] + pads[2 * i + 1]
        if out_shape[dim] < 0:
            raise runtime_error("Negative padding value is resulting in an empty dimension.")
    interpreter.check_items(math.prod(out_shape), node)
    out = Tensor(interpreter.graph, np.zeros(out_shape, dtype=x.data.dtype))

    def narrow(t: Any, dim: int, start: int, stop: int) -> Any:
        return interpreter.call_op(".narrow", [t, dim, start, stop - start], {}, node)

    def copy(target: Any, source: Any) -> None:
        interpreter.call_method(Method(target, "copy_"), [source], {}, node)

    def wrap(dim: int, into: tuple[int, int], start: int) -> None:
        """out's [start, start + n) copied into its [into) along dim: PyTorch's copy_ refuses a partial overlap."""
        width = into[1] - into[0]
        if start != into[0] and start < into[1] and into[0] < start + width:
            raise runtime_error("unsupported operation: some elements of the input tensor and the written-to tensor "
                                "refer to a single memory location. Please clone() the tensor before performing the "
                                "operation.")
        copy(narrow(out, dim, *into), narrow(out, dim, start, start + width))

    middle, source = out, x
    for i, dim in enumerate(dims):
        left, right = pads[2 * i], pads[2 * i + 1]
        middle = narrow(middle, dim, max(left, 0), out_shape[dim] - max(right, 0))
        source = narrow(source, dim, max(-left, 0), shape[dim] - max(-right, 0))
    copy(middle, source)
    for i, dim in enumerate(dims):
        left, right, size = pads[2 * i], pads[2 * i + 1], out_shape[dim]
        if left > 0:
            wrap(dim, (0, left), size - left - max(right, 0))
        if right > 0:
            wrap(dim, (size - right, size), max(left, 0))
    return out


class _Settings(Module):
    """A module that is one functional call of its input(s) and its settings, in PyTorch's order; its repr the
    settings `shown` as `name=value` (a name in `bare`: its value alone, as Hardshrink shows its lambd)."""

    label = ""
    function = ""
    spec: tuple[tuple[str, Any], ...] = ()  # (its settings, as __init__ takes them, with their defaults)
    inputs: tuple[str, ...] = ("input",)
    shown: tuple[str, ...] = ()
    bare: tuple[str, ...] = ()

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        Module.__init__(self)
        self.settings = _bind(f"{self.label}.__init__", [n for n, _ in self.spec],
                              {n: v for n, v in self.spec if v is not _REQUIRED}, args, kwargs)
        self.fields.update(self.settings)

    def extra_repr(self) -> str:
        return ", ".join(f"{self.fields[name]}" if name in self.bare else f"{name}={self.fields[name]}"
                         for name in self.shown)

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        inputs = list(_bind(f"{self.label}.forward", list(self.inputs), {}, args, kwargs).values())
        settings = {name: self.fields.get(name, value) for name, value in self.settings.items()}
        return interpreter.call_op(f"torch.nn.functional.{self.function}", inputs, settings, node)


_REQUIRED = object()


def _settings(label: str, function: str, params: list[tuple[str, Any]], shown: list[str] | None = None,
              inputs: tuple[str, ...] = ("input",), bare: tuple[str, ...] = ()) -> type[Module]:
    return type(label, (_Settings,), {"label": label, "function": function, "spec": tuple(params), "inputs": inputs,
                                      "shown": tuple(n for n, _ in params) if shown is None else tuple(shown),
                                      "bare": bare})


class Softmax2d(Module):
    """nn.Softmax2d: softmax over the channels (dim -3) of a 3-D or 4-D input."""

    label = "Softmax2d"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        Module.__init__(self)
        _bind("Softmax2d.__init__", [], {}, args, kwargs)

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        (x,) = _bind("Softmax2d.forward", ["input"], {}, args, kwargs).values()
        if isinstance(x, Tensor) and x.data.ndim not in (3, 4):
            raise TorchError("ValueError", f"Softmax2d: expected input to be 3D or 4D, got {x.data.ndim}D instead")
        return interpreter.call_op("torch.nn.functional.softmax", [x, -3], {}, node)


class Upsample(Module):
    """nn.Upsample (and UpsamplingNearest2d, UpsamplingBilinear2d: its mode and align_corners fixed):
    F.interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor=...), a scale factor
    kept as a float as PyTorch's __init__ keeps it."""

    label = "Upsample"
    fixed: ClassVar[dict[str, Any]] = {}

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        Module.__init__(self)
        if self.fixed:
            bound = {**_bind(f"{self.label}.__init__", ["size", "scale_factor"], {"size": None, "scale_factor": None},
                             args, kwargs), **self.fixed, "recompute_scale_factor": None}
            bound.setdefault("align_corners", None)
        else:
            bound = _bind("Upsample.__init__", ["size", "scale_factor", "mode", "align_corners", "recompute_scale_factor"],
                          {"size": None, "scale_factor": None, "mode": "nearest", "align_corners": None,
                           "recompute_scale_factor": None}, args, kwargs)
        factor = bound["scale_factor"]
        if isinstance(factor, tuple):
            bound["scale_factor"] = tuple(float(f) for f in factor)
        else:
            bound["scale_factor"] = float(factor) if factor else None
        self.fields.update({"name": self.label, **bound})

    def extra_repr(self) -> str:
        factor = self.fields["scale_factor"]
        info = f"scale_factor={factor!r}" if factor is not None else f"size={self.fields['size']!r}"
        return info + f", mode={self.fields['mode']!r}"

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        (x,) = _bind(f"{self.label}.forward", ["input"], {}, args, kwargs).values()
        f = self.fields
        return interpreter.call_op("torch.nn.functional.interpolate",
                                   [x, f["size"], f["scale_factor"], f["mode"], f["align_corners"]],
                                   {"recompute_scale_factor": f["recompute_scale_factor"]}, node)


class UpsamplingNearest2d(Upsample):
    label = "UpsamplingNearest2d"
    fixed: ClassVar[dict[str, Any]] = {"mode": "nearest"}


class UpsamplingBilinear2d(Upsample):
    label = "UpsamplingBilinear2d"
    fixed: ClassVar[dict[str, Any]] = {"mode": "bilinear", "align_corners": True}


_MAX_POOL = [("kernel_size", None), ("stride", None), ("padding", 0), ("dilation", 1), ("return_indices", False),
             ("ceil_mode", False)]
_MAX_SHOWN = ["kernel_size", "stride", "padding", "dilation", "ceil_mode"]
_AVG_POOL = [("kernel_size", None), ("stride", None), ("padding", 0), ("ceil_mode", False), ("count_include_pad", True),
             ("divisor_override", None)]
_AVG_SHOWN = ["kernel_size", "stride", "padding"]

_LOSS = [("size_average", None), ("reduce", None), ("reduction", "mean")]


def _feature_dropout(dims: int) -> type[Module]:
    label = f"Dropout{dims}d"

    class FeatureDropout(Dropout):
        def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
            (x,) = _bind(f"{label}.forward", ["input"], {}, args, kwargs).values()
            return interpreter.feature_dropout(dims, [x, self.settings["p"], self.training, self.settings["inplace"]],
                                               {}, node)

    FeatureDropout.label = label
    FeatureDropout.__name__ = label
    return FeatureDropout


class AlphaDropout(Dropout):
    label = "AlphaDropout"

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        (x,) = _bind(f"{self.label}.forward", ["input"], {}, args, kwargs).values()
        return interpreter.alpha_dropout("feature_alpha_dropout" if self.label == "FeatureAlphaDropout" else
                                         "alpha_dropout", [x, self.settings["p"], self.training, self.settings["inplace"]],
                                         {}, node)


class FeatureAlphaDropout(AlphaDropout):
    label = "FeatureAlphaDropout"


def lp_pool(interpreter: Interpreter, dims: int, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
    """F.lp_pool1d / lp_pool2d as PyTorch writes them: avg_pool of input ** p, sign(out) * relu(|out|) times the
    window's size, to the power 1 / p (p = inf: max_pool of |input|)."""
    bound = _bind(f"lp_pool{dims}d", ["input", "norm_type", "kernel_size", "stride", "ceil_mode"],
                  {"stride": None, "ceil_mode": False}, args, kwargs)
    for required in ("input", "norm_type", "kernel_size"):
        if required not in bound:
            raise PythonError("TypeError", f"lp_pool{dims}d() missing 1 required positional argument: '{required}'")
    x, p, kernel, stride = bound["input"], bound["norm_type"], bound["kernel_size"], bound["stride"]
    call = interpreter.call_op
    if isinstance(p, (int, float)) and math.isinf(p):
        pooled = call(f"torch.nn.functional.max_pool{dims}d", [call("torch.abs", [x], {}, node)],
                      {"kernel_size": kernel, "stride": stride, "ceil_mode": bound["ceil_mode"]}, node)
        return pooled if p > 0 else call("torch.neg", [pooled], {}, node)
    settings = {"kernel_size": kernel, "padding": 0, "ceil_mode": bound["ceil_mode"]}
    if stride is not None:
        settings["stride"] = stride
    out = call(f"torch.nn.functional.avg_pool{dims}d", [call("torch.pow", [x, p], {}, node)], settings, node)
    kept = call("torch.mul", [call("torch.sign", [out], {}, node),
                              call("torch.relu", [call("torch.abs", [out], {}, node)], {}, node)], {}, node)
    size = math.prod(_tuple(kernel, dims)) if dims == 2 else kernel
    return call("torch.pow", [call("torch.mul", [kept, size], {}, node), 1.0 / p], {}, node)


def _lp_pool(dims: int) -> type[Module]:
    label = f"LPPool{dims}d"

    class LPPool(Module):
        def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
            Module.__init__(self)
            self.settings = _bind("_LPPoolNd.__init__", ["norm_type", "kernel_size", "stride", "ceil_mode"],
                                  {"stride": None, "ceil_mode": False}, args, kwargs)
            for required in ("norm_type", "kernel_size"):
                if required not in self.settings:
                    raise PythonError("TypeError", f"_LPPoolNd.__init__() missing 1 required positional argument: "
                                                   f"'{required}'")
            self.fields.update(self.settings)

        def extra_repr(self) -> str:
            return ", ".join(f"{name}={self.settings[name]}" for name in ("norm_type", "kernel_size", "stride",
                                                                          "ceil_mode"))

        def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
            (x,) = _bind(f"{label}.forward", ["input"], {}, args, kwargs).values()
            return lp_pool(interpreter, dims, [x], self.settings, node)

    LPPool.label = label
    LPPool.__name__ = label
    return LPPool


class Bilinear(Module):
    """nn.Bilinear(in1_features, in2_features, out_features): a weight (out, in1, in2) and a bias, both drawn
    U(-1/sqrt(in1), 1/sqrt(in1)) as its reset_parameters draws them; F.bilinear of its two inputs."""

    label = "Bilinear"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        bound = _bind("Bilinear.__init__", ["in1_features", "in2_features", "out_features", "bias", "device", "dtype"],
                      {"bias": True, "device": None, "dtype": None}, args, kwargs)
        for required in ("in1_features", "in2_features", "out_features"):
            if required not in bound:
                raise PythonError("TypeError", f"Bilinear.__init__() missing 1 required positional argument: "
                                               f"'{required}'")
        self.in1, self.in2, self.out = (int(bound[key]) for key in ("in1_features", "in2_features", "out_features"))
        self.fields.update({"in1_features": self.in1, "in2_features": self.in2, "out_features": self.out})
        dtype = bound["dtype"].numpy if bound["dtype"] is not None else FLOAT32
        weight = np.empty((self.out, self.in1, self.in2), dtype=dtype)
        if self.in1 <= 0:
            raise TorchError("ValueError", f"in1_features must be > 0, but got (in1_features={self.in1})")
        limit = 1 / math.sqrt(self.in1)
        interpreter.generator.uniform_(weight, -limit, limit)
        self.set(interpreter, "weight", parameter(interpreter, Tensor(interpreter.graph, weight)))
        if bound["bias"]:
            bias = interpreter.generator.uniform_(np.empty((self.out,), dtype=dtype), -limit, limit)
            self.set(interpreter, "bias", parameter(interpreter, Tensor(interpreter.graph, bias)))
        else:
            self.params["bias"] = None

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1}, in2_features={self.in2}, out_features={self.out}, "
                f"bias={self.params['bias'] is not None}")

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        x1, x2 = _bind("Bilinear.forward", ["input1", "input2"], {}, args, kwargs).values()
        bias = self.params["bias"]
        return interpreter.call_op("torch.nn.functional.bilinear",
                                   [x1, x2, self.params["weight"], *([] if bias is None else [bias])], {}, node)


class LayerNorm(Module):
    """nn.LayerNorm: F.layer_norm over the last dims, its weight ones and its bias zeros (parameters)."""

    label = "LayerNorm"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        bound = _bind("LayerNorm.__init__", ["normalized_shape", "eps", "elementwise_affine", "bias", "device", "dtype"],
                      {"eps": 1e-05, "elementwise_affine": True, "bias": True, "device": None, "dtype": None},
                      args, kwargs)
        given = bound["normalized_shape"]
        self.shape = tuple(int(n) for n in given) if isinstance(given, (tuple, list)) else (int(given),)
        self.eps, self.affine = bound["eps"], bool(bound["elementwise_affine"])
        self.has_bias = self.affine and bool(bound["bias"])
        dtype = bound["dtype"].numpy if bound["dtype"] is not None else FLOAT32
        interpreter.check_items(math.prod(self.shape), interpreter.call_node or interpreter.node or ast.Pass())
        self.fields.update(normalized_shape=self.shape, eps=self.eps, elementwise_affine=self.affine)
        if self.affine:
            self.set(interpreter, "weight", parameter(interpreter, Tensor(interpreter.graph, np.ones(self.shape, dtype))))
        else:
            self.params["weight"] = None
        if self.has_bias:
            self.set(interpreter, "bias", parameter(interpreter, Tensor(interpreter.graph, np.zeros(self.shape, dtype))))
        else:
            self.params["bias"] = None

    def extra_repr(self) -> str:
        return f"{self.shape}, eps={self.eps}, elementwise_affine={self.affine}, bias={self.has_bias}"

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        (x,) = _bind("LayerNorm.forward", ["input"], {}, args, kwargs).values()
        given = {key: value for key, value in (("weight", self.params["weight"]), ("bias", self.params["bias"]))
                 if value is not None}
        return interpreter.call_op("torch.nn.functional.layer_norm", [x],
                                   {"normalized_shape": self.shape, **given, "eps": self.eps}, node)


class GroupNorm(Module):
    """nn.GroupNorm(num_groups, num_channels): F.group_norm with a weight of ones and a bias of zeros (parameters)."""

    label = "GroupNorm"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        bound = _bind("GroupNorm.__init__", ["num_groups", "num_channels", "eps", "affine", "device", "dtype", "bias"],
                      {"eps": 1e-05, "affine": True, "device": None, "dtype": None, "bias": True}, args, kwargs,
                      positional=6)
        self.groups, self.channels = int(bound["num_groups"]), int(bound["num_channels"])
        if self.channels % self.groups != 0:
            raise TorchError("ValueError", f"num_channels ({self.channels}) must be divisible by num_groups "
                                           f"({self.groups})")
        self.eps, self.affine = bound["eps"], bool(bound["affine"])
        self.fields.update(num_groups=self.groups, num_channels=self.channels, eps=self.eps, affine=self.affine)
        dtype = bound["dtype"].numpy if bound["dtype"] is not None else FLOAT32
        self.params["weight"] = self.params["bias"] = None
        if self.affine:
            self.set(interpreter, "weight", parameter(interpreter, Tensor(interpreter.graph, np.ones(self.channels, dtype))))
            if bound["bias"]:
                self.set(interpreter, "bias",
                         parameter(interpreter, Tensor(interpreter.graph, np.zeros(self.channels, dtype))))

    def extra_repr(self) -> str:
        return (f"{self.groups}, {self.channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.params['bias'] is not None}")

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        (x,) = _bind("GroupNorm.forward", ["input"], {}, args, kwargs).values()
        given = {key: value for key, value in (("weight", self.params["weight"]), ("bias", self.params["bias"]))
                 if value is not None}
        return interpreter.call_op("torch.nn.functional.group_norm", [x, self.groups], {**given, "eps": self.eps}, node)


class RMSNorm(Module):
    """nn.RMSNorm(normalized_shape, eps=None, elementwise_affine=True): F.rms_norm with a weight of ones."""

    label = "RMSNorm"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        bound = _bind("RMSNorm.__init__", ["normalized_shape", "eps", "elementwise_affine", "device", "dtype"],
                      {"eps": None, "elementwise_affine": True, "device": None, "dtype": None}, args, kwargs)
        given = bound["normalized_shape"]
        self.shape = tuple(int(n) for n in given) if isinstance(given, (tuple, list)) else (int(given),)
        self.eps, self.affine = bound["eps"], bool(bound["elementwise_affine"])
        self.fields.update(normalized_shape=self.shape, eps=self.eps, elementwise_affine=self.affine)
        dtype = bound["dtype"].numpy if bound["dtype"] is not None else FLOAT32
        interpreter.check_items(math.prod(self.shape), interpreter.call_node or interpreter.node or ast.Pass())
        self.params["weight"] = None
        if self.affine:
            self.set(interpreter, "weight", parameter(interpreter, Tensor(interpreter.graph, np.ones(self.shape, dtype))))

    def extra_repr(self) -> str:
        return f"{self.shape}, eps={self.eps}, elementwise_affine={self.affine}"

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        (x,) = _bind("RMSNorm.forward", ["x"], {}, args, kwargs).values()
        weight = self.params["weight"]
        return interpreter.call_op("torch.nn.functional.rms_norm", [x, self.shape],
                                   {**({} if weight is None else {"weight": weight}), "eps": self.eps}, node)


class Unflatten(Module):
    """nn.Unflatten(dim, unflattened_size): input.unflatten(dim, unflattened_size)."""

    label = "Unflatten"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        bound = _bind("Unflatten.__init__", ["dim", "unflattened_size"], {}, args, kwargs)
        size = bound["unflattened_size"]
        if not isinstance(size, (tuple, list)):
            raise PythonError("TypeError", f"unflattened_size must be a tuple of ints, but found type "
                                           f"{_tensor_type(size)}")
        for place, item in enumerate(size):
            if not isinstance(item, int):
                raise PythonError("TypeError", f"unflattened_size must be tuple of ints, but found element of type "
                                               f"{_tensor_type(item)} at pos {place}")
        self.dim, self.size = bound["dim"], size
        self.fields.update(dim=self.dim, unflattened_size=self.size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.size!r}"

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        (x,) = _bind("Unflatten.forward", ["input"], {}, args, kwargs).values()
        return interpreter.call_op(".unflatten", [x, self.dim, self.size], {}, node)


class _NormBase(Module):
    """PyTorch's _NormBase: num_features, eps, momentum, affine (weight ones and bias zeros, parameters),
    track_running_stats (running_mean zeros, running_var ones and num_batches_tracked, buffers), as its
    BatchNorm and InstanceNorm modules take them (their defaults of affine and track_running_stats differ)."""

    def __init__(self, interpreter: Interpreter, label: str, args: Args, kwargs: Kwargs, affine: bool,
                 track_running_stats: bool) -> None:
        Module.__init__(self)
        bound = _bind(f"{label}.__init__", ["num_features", "eps", "momentum", "affine", "track_running_stats",
                                            "device", "dtype", "bias"],
                      {"eps": 1e-05, "momentum": 0.1, "affine": affine, "track_running_stats": track_running_stats,
                       "device": None, "dtype": None, "bias": True}, args, kwargs)
        count = int(bound["num_features"])
        interpreter.check_items(count, interpreter.call_node or interpreter.node or ast.Pass())
        dtype = bound["dtype"].numpy if bound["dtype"] is not None else FLOAT32
        self.settings = {"num_features": count, "eps": bound["eps"], "momentum": bound["momentum"],
                         "affine": bool(bound["affine"]), "bias": bool(bound["affine"]) and bool(bound["bias"]),
                         "track_running_stats": bool(bound["track_running_stats"])}
        self.fields.update({k: v for k, v in self.settings.items() if k != "bias"})
        graph = interpreter.graph
        self.params["weight"], self.params["bias"] = None, None
        if self.settings["affine"]:
            self.set(interpreter, "weight", parameter(interpreter, Tensor(graph, np.ones(count, dtype))))
        if self.settings["bias"]:
            self.set(interpreter, "bias", parameter(interpreter, Tensor(graph, np.zeros(count, dtype))))
        if self.settings["track_running_stats"]:
            self.buffer_values.update(running_mean=Tensor(graph, np.zeros(count, dtype)),
                                      running_var=Tensor(graph, np.ones(count, dtype)),
                                      num_batches_tracked=Tensor(graph, np.zeros((), np.int64)))
        else:
            self.buffer_values.update(running_mean=None, running_var=None, num_batches_tracked=None)

    def extra_repr(self) -> str:
        got = self.settings
        return (f"{got['num_features']}, eps={got['eps']}, momentum={got['momentum']}, affine={got['affine']}, "
                f"bias={got['bias']}, track_running_stats={got['track_running_stats']}")


def _batch_norm(dims: int) -> type[Module]:
    """nn.BatchNorm1d / 2d / 3d: weight ones and bias zeros (parameters), running_mean zeros,
    running_var ones and num_batches_tracked (buffers); F.batch_norm with the batch's statistics in
    training (the running ones updated), the running ones in eval."""
    label = f"BatchNorm{dims}d"
    wanted = {1: (2, 3), 2: (4,), 3: (5,)}[dims]

    class BatchNorm(_NormBase):
        def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
            _NormBase.__init__(self, interpreter, label, args, kwargs, affine=True, track_running_stats=True)

        def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
            (x,) = _bind(f"{label}.forward", ["input"], {}, args, kwargs).values()
            if isinstance(x, Tensor) and x.data.ndim not in wanted:
                raise TorchError("ValueError", f"expected {' or '.join(f'{d}D' for d in wanted)} input "
                                               f"(got {x.data.ndim}D input)")
            momentum = self.settings["momentum"]
            factor = 0.0 if momentum is None else momentum
            tracked = self.buffer_values.get("num_batches_tracked")
            if self.training and self.settings["track_running_stats"] and tracked is not None:
                interpreter.overwrite(tracked, tracked.data + 1)
                factor = 1.0 / float(tracked.data) if momentum is None else momentum
            use_batch = self.training or self.buffer_values.get("running_mean") is None
            stats = [None, None] if self.training and not self.settings["track_running_stats"] else \
                [self.buffer_values.get("running_mean"), self.buffer_values.get("running_var")]
            return interpreter.batch_norm([x, *stats], {"weight": self.params["weight"], "bias": self.params["bias"],
                                                        "training": use_batch, "momentum": factor,
                                                        "eps": self.settings["eps"]}, node)

    BatchNorm.label = label
    BatchNorm.__name__ = label
    return BatchNorm


def _instance_norm(dims: int) -> type[Module]:
    """nn.InstanceNorm1d / 2d / 3d: _NormBase's parameters and buffers (affine and track_running_stats False by
    default); F.instance_norm of a batch, of an unbatched input unsqueezed and squeezed back, with the input's
    statistics in training or where no running ones are tracked (num_batches_tracked is never counted)."""
    label = f"InstanceNorm{dims}d"
    unbatched = dims + 1

    class InstanceNorm(_NormBase):
        def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
            _NormBase.__init__(self, interpreter, label, args, kwargs, affine=False, track_running_stats=False)

        def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
            (x,) = _bind(f"{label}.forward", ["input"], {}, args, kwargs).values()
            if not isinstance(x, Tensor):
                raise TorchError("AttributeError", f"'{type(x).__name__}' object has no attribute 'dim'")
            if x.data.ndim not in (unbatched, unbatched + 1):
                raise TorchError("ValueError", f"expected {unbatched}D or {unbatched + 1}D input (got {x.data.ndim}D "
                                               "input)")
            feature = x.data.ndim - unbatched
            count = self.settings["num_features"]
            if x.data.shape[feature] != count:
                if self.settings["affine"]:
                    raise TorchError("ValueError", f"expected input's size at dim={feature} to match num_features "
                                                   f"({count}), but got: {x.data.shape[feature]}.")
                interpreter.warn("UserWarning", f"input's size at dim={feature} does not match num_features. You can "
                                                "silence this warning by not passing in num_features, which is not "
                                                "used because affine=False", node)
            momentum = self.settings["momentum"]
            given = {"weight": self.params["weight"], "bias": self.params["bias"],
                     "use_input_stats": self.training or not self.settings["track_running_stats"],
                     "momentum": 0.0 if momentum is None else momentum, "eps": self.settings["eps"]}
            stats = [self.buffer_values.get("running_mean"), self.buffer_values.get("running_var")]
            if x.data.ndim == unbatched:  # (an unbatched input: a batch of one, squeezed back)
                batch = interpreter.call_op("torch.unsqueeze", [x, 0], {}, node)
                out = interpreter.instance_norm([batch, *stats], given, node)
                return interpreter.call_op("torch.squeeze", [out, 0], {}, node)
            return interpreter.instance_norm([x, *stats], given, node)

    InstanceNorm.label = label
    InstanceNorm.__name__ = label
    return InstanceNorm


class PReLU(Module):
    label = "PReLU"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        bound = _bind("PReLU.__init__", ["num_parameters", "init", "device", "dtype"],
                      {"num_parameters": 1, "init": 0.25, "device": None, "dtype": None}, args, kwargs)
        self.count = int(bound["num_parameters"])
        interpreter.check_items(self.count, interpreter.call_node or interpreter.node or ast.Pass())
        dtype = bound["dtype"].numpy if bound["dtype"] is not None else FLOAT32
        self.fields["num_parameters"] = self.count
        weight = np.full((self.count,), bound["init"], dtype=dtype)
        self.set(interpreter, "weight", parameter(interpreter, Tensor(interpreter.graph, weight)))

    def extra_repr(self) -> str:
        return f"num_parameters={self.count}"

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        (x,) = _bind("PReLU.forward", ["input"], {}, args, kwargs).values()
        return interpreter.call_op("torch.nn.functional.prelu", [x, self.params["weight"]], {}, node)


MODULES: dict[str, type[Module]] = {
    "Module": Module,
    "Linear": Linear,
    "Sequential": Sequential,
    "ModuleList": ModuleList,
    "ModuleDict": ModuleDict,
    "Conv1d": _conv(1),
    "Conv2d": _conv(2),
    "Conv3d": _conv(3),
    "ConvTranspose1d": _conv(1, transposed=True),
    "ConvTranspose2d": _conv(2, transposed=True),
    "ConvTranspose3d": _conv(3, transposed=True),
    "Dropout": Dropout,
    "Dropout1d": _feature_dropout(1),
    "Dropout2d": _feature_dropout(2),
    "Dropout3d": _feature_dropout(3),
    "Embedding": Embedding,
    "LayerNorm": LayerNorm,
    "PReLU": PReLU,
    "BatchNorm1d": _batch_norm(1),
    "BatchNorm2d": _batch_norm(2),
    "BatchNorm3d": _batch_norm(3),
    "InstanceNorm1d": _instance_norm(1),
    "InstanceNorm2d": _instance_norm(2),
    "InstanceNorm3d": _instance_norm(3),
    "GELU": _simple("GELU", "gelu", [("approximate", "none")]),
    "ELU": _simple("ELU", "elu", [("alpha", 1.0), ("inplace", False)], ["alpha"]),
    "CELU": _simple("CELU", "celu", [("alpha", 1.0), ("inplace", False)], ["alpha"]),
    "SELU": _simple("SELU", "selu", [("inplace", False)], []),
    "SiLU": _simple("SiLU", "silu", [("inplace", False)], []),
    "Mish": _simple("Mish", "mish", [("inplace", False)], []),
    "ReLU6": _simple("ReLU6", "relu6", [("inplace", False)], []),
    "Hardtanh": _simple("Hardtanh", "hardtanh", [("min_val", -1.0), ("max_val", 1.0), ("inplace", False)],
                        ["min_val", "max_val"]),
    "Hardsigmoid": _simple("Hardsigmoid", "hardsigmoid", [("inplace", False)], [], shows_inplace=False),
    "Hardswish": _simple("Hardswish", "hardswish", [("inplace", False)], [], shows_inplace=False),
    "Softplus": _simple("Softplus", "softplus", [("beta", 1.0), ("threshold", 20.0)]),
    "LogSigmoid": _simple("LogSigmoid", "logsigmoid", [], []),
    "Softsign": _simple("Softsign", "softsign", [], []),
    "Tanhshrink": _simple("Tanhshrink", "tanhshrink", [], []),
    "Softmin": _simple("Softmin", "softmin", [("dim", None)]),
    "GLU": _simple("GLU", "glu", [("dim", -1)]),
    "Threshold": _simple("Threshold", "threshold", [("threshold", None), ("value", None), ("inplace", False)],
                         ["threshold", "value"]),
    "BCELoss": _simple("BCELoss", "binary_cross_entropy", [("weight", None), *_LOSS], []),
    "SmoothL1Loss": _simple("SmoothL1Loss", "smooth_l1_loss", [*_LOSS, ("beta", 1.0)], []),
    "HuberLoss": _simple("HuberLoss", "huber_loss", [("reduction", "mean"), ("delta", 1.0)], []),
    "KLDivLoss": _simple("KLDivLoss", "kl_div", [*_LOSS, ("log_target", False)], []),
    "MaxPool1d": _pool("MaxPool1d", "max_pool1d", _MAX_POOL, _MAX_SHOWN, base="_MaxPoolNd"),
    "MaxPool2d": _pool("MaxPool2d", "max_pool2d", _MAX_POOL, _MAX_SHOWN, base="_MaxPoolNd"),
    "MaxPool3d": _pool("MaxPool3d", "max_pool3d", _MAX_POOL, _MAX_SHOWN, base="_MaxPoolNd"),
    "AvgPool1d": _pool("AvgPool1d", "avg_pool1d", _AVG_POOL[:-1], _AVG_SHOWN, single=True),
    "AvgPool2d": _pool("AvgPool2d", "avg_pool2d", _AVG_POOL, _AVG_SHOWN),
    "AvgPool3d": _pool("AvgPool3d", "avg_pool3d", _AVG_POOL, _AVG_SHOWN),
    "AdaptiveAvgPool1d": _pool("AdaptiveAvgPool1d", "adaptive_avg_pool1d", [("output_size", None)], ["output_size"],
                                  base="_AdaptiveAvgPoolNd"),
    "AdaptiveAvgPool2d": _pool("AdaptiveAvgPool2d", "adaptive_avg_pool2d", [("output_size", None)], ["output_size"],
                                  base="_AdaptiveAvgPoolNd"),
    "AdaptiveAvgPool3d": _pool("AdaptiveAvgPool3d", "adaptive_avg_pool3d", [("output_size", None)], ["output_size"],
                                  base="_AdaptiveAvgPoolNd"),
    "AdaptiveMaxPool1d": _pool("AdaptiveMaxPool1d", "adaptive_max_pool1d", [("output_size", None),
                                                                            ("return_indices", False)], ["output_size"],
                               base="_AdaptiveMaxPoolNd"),
    "AdaptiveMaxPool3d": _pool("AdaptiveMaxPool3d", "adaptive_max_pool3d", [("output_size", None),
                                                                            ("return_indices", False)], ["output_size"],
                               base="_AdaptiveMaxPoolNd"),
    "LPPool1d": _lp_pool(1),
    "LPPool2d": _lp_pool(2),
    "AlphaDropout": AlphaDropout,
    "FeatureAlphaDropout": FeatureAlphaDropout,
    "GroupNorm": GroupNorm,
    "RMSNorm": RMSNorm,
    "Unflatten": Unflatten,
    "Bilinear": Bilinear,
    "AdaptiveMaxPool2d": _pool("AdaptiveMaxPool2d", "adaptive_max_pool2d", [("output_size", None),
                                                                            ("return_indices", False)], ["output_size"],
                                  base="_AdaptiveMaxPoolNd"),
    "ReLU": _simple("ReLU", "relu", [("inplace", False)], []),
    "Tanh": _simple("Tanh", "tanh", [], []),
    "Sigmoid": _simple("Sigmoid", "sigmoid", [], []),
    "Identity": Identity,
    "LazyLinear": LazyLinear,
    **{f"{kind}{dims}d": _padding(mode, dims, zero=kind == "ZeroPad")
       for kind, mode in (("ReflectionPad", "reflect"), ("ReplicationPad", "replicate"), ("ConstantPad", "constant"),
                          ("ZeroPad", "constant"), ("CircularPad", "circular")) for dims in (1, 2, 3)},
    "PixelShuffle": _settings("PixelShuffle", "pixel_shuffle", [("upscale_factor", _REQUIRED)]),
    "PixelUnshuffle": _settings("PixelUnshuffle", "pixel_unshuffle", [("downscale_factor", _REQUIRED)]),
    "ChannelShuffle": _settings("ChannelShuffle", "channel_shuffle", [("groups", _REQUIRED)]),
    "Hardshrink": _settings("Hardshrink", "hardshrink", [("lambd", 0.5)], bare=("lambd",)),
    "Softshrink": _settings("Softshrink", "softshrink", [("lambd", 0.5)], bare=("lambd",)),
    "CosineSimilarity": _settings("CosineSimilarity", "cosine_similarity", [("dim", 1), ("eps", 1e-8)], [],
                                  inputs=("x1", "x2")),
    "PairwiseDistance": _settings("PairwiseDistance", "pairwise_distance", [("p", 2.0), ("eps", 1e-6),
                                                                            ("keepdim", False)], [], inputs=("x1", "x2")),
    "LocalResponseNorm": _settings("LocalResponseNorm", "local_response_norm",
                                   [("size", _REQUIRED), ("alpha", 1e-4), ("beta", 0.75), ("k", 1.0)],
                                   bare=("size",)),
    "Softmax2d": Softmax2d,
    "RReLU": RReLU,
    "FractionalMaxPool2d": FractionalMaxPool2d,
    "Unfold": _settings("Unfold", "unfold", [("kernel_size", _REQUIRED), ("dilation", 1), ("padding", 0), ("stride", 1)]),
    "Fold": _settings("Fold", "fold", [("output_size", _REQUIRED), ("kernel_size", _REQUIRED), ("dilation", 1),
                                       ("padding", 0), ("stride", 1)]),
    "Upsample": Upsample,
    "UpsamplingNearest2d": UpsamplingNearest2d,
    "UpsamplingBilinear2d": UpsamplingBilinear2d,
    "LeakyReLU": _simple("LeakyReLU", "leaky_relu", [("negative_slope", 0.01), ("inplace", False)], ["negative_slope"]),
    "Softmax": _simple("Softmax", "softmax", [("dim", None)]),
    "LogSoftmax": _simple("LogSoftmax", "log_softmax", [("dim", None)]),
    "Flatten": _simple("Flatten", "flatten", [("start_dim", 1), ("end_dim", -1)]),
    "MSELoss": _simple("MSELoss", "mse_loss", _LOSS, []),
    "L1Loss": _simple("L1Loss", "l1_loss", _LOSS, []),
    "CrossEntropyLoss": _simple("CrossEntropyLoss", "cross_entropy",
                                [("weight", None), ("size_average", None), ("ignore_index", -100), ("reduce", None),
                                 ("reduction", "mean"), ("label_smoothing", 0.0)], []),
    "NLLLoss": _simple("NLLLoss", "nll_loss", [("weight", None), ("size_average", None), ("ignore_index", -100),
                                               ("reduce", None), ("reduction", "mean")], []),
    "BCEWithLogitsLoss": _simple("BCEWithLogitsLoss", "binary_cross_entropy_with_logits",
                                 [("weight", None), ("size_average", None), ("reduce", None), ("reduction", "mean"),
                                  ("pos_weight", None)], []),
    "MarginRankingLoss": _simple("MarginRankingLoss", "margin_ranking_loss", [("margin", 0.0), *_LOSS], []),
    "HingeEmbeddingLoss": _simple("HingeEmbeddingLoss", "hinge_embedding_loss", [("margin", 1.0), *_LOSS], []),
    "SoftMarginLoss": _simple("SoftMarginLoss", "soft_margin_loss", _LOSS, []),
    "CosineEmbeddingLoss": _simple("CosineEmbeddingLoss", "cosine_embedding_loss", [("margin", 0.0), *_LOSS], []),
    "TripletMarginLoss": _simple("TripletMarginLoss", "triplet_margin_loss",
                                 [("margin", 1.0), ("p", 2.0), ("eps", 1e-06), ("swap", False), *_LOSS], []),
    "PoissonNLLLoss": _simple("PoissonNLLLoss", "poisson_nll_loss",
                              [("log_input", True), ("full", False), ("size_average", None), ("eps", 1e-08),
                               ("reduce", None), ("reduction", "mean")], []),
    "GaussianNLLLoss": _simple("GaussianNLLLoss", "gaussian_nll_loss",
                               [("full", False), ("eps", 1e-06), ("reduction", "mean")], [], positional=0),
    "MultiLabelSoftMarginLoss": _simple("MultiLabelSoftMarginLoss", "multilabel_soft_margin_loss",
                                        [("weight", None), *_LOSS], []),
    "MultiMarginLoss": _simple("MultiMarginLoss", "multi_margin_loss", [("p", 1), ("margin", 1.0), ("weight", None),
                                                                         *_LOSS], []),
    "MultiLabelMarginLoss": _simple("MultiLabelMarginLoss", "multilabel_margin_loss", _LOSS, []),
}


def _clean(settings: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in settings.items() if k not in ("inplace", "size_average", "reduce")
            and not (k in ("weight", "pos_weight") and v is None) and not (k == "ignore_index" and v == -100)
            and not (k == "label_smoothing" and v == 0.0)}


class NativeClass:
    """A class of torch.nn or torch.optim, as the file names it (`nn.Linear`, `optim.SGD`)."""

    def __init__(self, module: str, name: str, kind: type) -> None:
        self.module, self.name, self.kind = module, name, kind

    def __repr__(self) -> str:
        where = _SUBMODULES.get(self.name) if self.module == "torch.nn" else None
        if self.module == "torch.optim":  # (each optimizer in a module of its own name: torch.optim.sgd.SGD)
            where = self.name.lower()
        return f"<class '{self.module}.{where + '.' if where else ''}{self.name}'>"

    def __eq__(self, other: object) -> bool:  # type(m) == nn.Linear
        return isinstance(other, NativeClass) and (other.module, other.name) == (self.module, self.name)

    def __hash__(self) -> int:
        return hash((self.module, self.name))

    def instance_check(self, value: Any) -> bool:
        if self.kind is Tensor:
            return isinstance(value, Tensor) and (self.name != "Parameter" or getattr(value, "parameter", False))
        return isinstance(value, self.kind)

    def type_name(self) -> str:
        return "type"


# Where PyTorch defines each class of torch.nn (type(m) prints <class 'torch.nn.modules.linear.Linear'>)
_SUBMODULES = {name: f"modules.{where}" for where, names in (
    ("linear", ("Linear", "Identity", "Bilinear", "LazyLinear", "NonDynamicallyQuantizableLinear")), ("container", ("Sequential", "ModuleList", "ModuleDict")),
    ("activation", ("ReLU", "LeakyReLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "GELU", "ELU", "Softplus", "SiLU",
                    "Hardshrink", "Softshrink", "Softmax2d", "RReLU", "CELU", "GLU", "Hardsigmoid", "Hardswish", "Hardtanh",
                    "LogSigmoid", "Mish", "PReLU", "ReLU6", "SELU", "Softmin", "Softsign", "Tanhshrink", "Threshold")),
    ("conv", ("Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d")),
    ("dropout", ("Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout")), ("flatten", ("Flatten", "Unflatten")),
    ("loss", ("MSELoss", "L1Loss", "CrossEntropyLoss", "NLLLoss", "BCEWithLogitsLoss", "BCELoss", "HuberLoss",
              "SmoothL1Loss", "KLDivLoss", "MarginRankingLoss", "HingeEmbeddingLoss", "SoftMarginLoss",
              "CosineEmbeddingLoss", "TripletMarginLoss", "PoissonNLLLoss", "GaussianNLLLoss",
              "MultiLabelSoftMarginLoss", "MultiMarginLoss", "MultiLabelMarginLoss")), ("sparse", ("Embedding",)),
    ("normalization", ("LayerNorm", "LocalResponseNorm", "GroupNorm", "RMSNorm")), ("module", ("Module",)),
    ("batchnorm", ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d")),
    ("instancenorm", ("InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d")),
    ("pooling", ("LPPool1d", "LPPool2d", "FractionalMaxPool2d", *(f"{kind}Pool{dims}d" for kind in ("Max", "Avg", "AdaptiveAvg", "AdaptiveMax")
                                           for dims in (1, 2, 3)))),
    ("padding", tuple(f"{kind}Pad{dims}d" for kind in ("Reflection", "Replication", "Constant", "Zero", "Circular")
                      for dims in (1, 2, 3))),
    ("pixelshuffle", ("PixelShuffle", "PixelUnshuffle")), ("fold", ("Fold", "Unfold")), ("channelshuffle", ("ChannelShuffle",)),
    ("distance", ("CosineSimilarity", "PairwiseDistance")),
    ("upsampling", ("Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d")),
    ("rnn", ("RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell")), ("activation", ("MultiheadAttention",)),
    ("transformer", ("TransformerEncoderLayer", "TransformerEncoder", "TransformerDecoderLayer", "TransformerDecoder",
                     "Transformer")))
    for name in names}


class NativeMethod:
    """A method of a module or an optimizer (`model.parameters`, `optimizer.step`)."""

    def __init__(self, receiver: Any, name: str) -> None:
        self.receiver, self.name = receiver, name

    def __repr__(self) -> str:
        return f"<bound method {self.receiver.type_name()}.{self.name} of {self.receiver!r}>"

    def type_name(self) -> str:
        return "method"


class StateDict(OrderedDict):
    """Module.state_dict(): an OrderedDict of detached tensors, as Python 3.11 prints one."""


def is_module_kind(kind: Any) -> bool:
    """nn.Module, or a native module a class of the file may derive from (nn.CrossEntropyLoss, nn.Linear ...)."""
    return isinstance(kind, type) and issubclass(kind, Module)


def subclass_instance(kind: type[Module], cls: UserClass) -> Module:
    """An object of a file's class deriving from a native module: the native kind's, its class the file's;
    the native __init__ (its settings, its parameters drawn) runs when the file's __init__ calls super().__init__."""
    made = kind.__new__(kind)
    Module.__init__(made, cls)
    return made


def native_init(interpreter: Interpreter, module: Module, args: Args, kwargs: Kwargs) -> None:
    """The native __init__ of a file's module deriving from a native one, as PyTorch runs its base's __init__:
    the attributes the file set before it stay; the class stays the file's."""
    cls, before = module.cls, dict(module.fields)
    initialize: Any = type(module).__init__  # (a native kind's: (self, interpreter, args, kwargs))
    initialize(module, interpreter, args, kwargs)
    module.cls = cls
    module.fields = {**before, **module.fields}
    module.initialized = True


_CLASSES: dict[tuple[str, str], NativeClass] = {}


def native_class(module: str, name: str, kind: type) -> NativeClass:
    """The one object of each class, as Python has one: `type(m) is nn.Linear` holds."""
    return _CLASSES.setdefault((module, name), NativeClass(module, name, kind))


def nn_class(name: str) -> NativeClass | None:
    if name == "Parameter":
        return native_class("torch.nn.parameter", "Parameter", Tensor)
    kind = MODULES.get(name)
    return None if kind is None else native_class("torch.nn", name, kind)


def module_class(label: str) -> NativeClass | None:
    """type(m) of a native module: its class in torch.nn, or the one class of torch.nn.modules that torch.nn does not
    name (MultiheadAttention's out_proj, a NonDynamicallyQuantizableLinear)."""
    if label == "NonDynamicallyQuantizableLinear":
        return native_class("torch.nn", label, Linear)
    return nn_class(label)


def optim_class(name: str) -> NativeClass | None:
    kind = Optimizer if name == "Optimizer" else OPTIMIZERS.get(name)  # (the base: isinstance(o, optim.Optimizer))
    return None if kind is None else native_class("torch.optim", name, kind)


def construct(interpreter: Interpreter, native: NativeClass, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
    if native.name == "Parameter":
        bound = _bind("Parameter", ["data", "requires_grad"], {"data": None, "requires_grad": True}, args, kwargs)
        data = bound["data"]
        if data is None:
            data = Tensor(interpreter.graph, np.zeros((0,), dtype=FLOAT32))
        if not isinstance(data, Tensor):
            raise TorchError("TypeError", f"expected Tensor as element 0 in argument 0, but got {_tensor_type(data)}")
        return parameter(interpreter, data, bool(bound["requires_grad"]))
    if native.kind is Module:
        return Module()
    if native.kind is Optimizer:
        raise interpreter.refuse(node, "torch.optim.Optimizer(...) itself is not supported",
                                 "use one of torch.optim's optimizers: SGD, Adam, AdamW, Adagrad, RMSprop")
    return native.kind(interpreter, args, kwargs)


# --- what a file reads and calls on a module -------------------------------------------------------

# what PyTorch 2.13's nn.Module has (dir(nn.Module)): a name of these that gradcli's run lacks is its refusal
MODULE_API = frozenset({
    "add_module", "apply", "bfloat16", "buffers", "call_super_init", "children", "compile", "cpu", "cuda", "double",
    "dump_patches", "eval", "extra_repr", "float", "forward", "get_buffer", "get_extra_state", "get_parameter",
    "get_submodule", "half", "ipu", "load_state_dict", "modules", "mtia", "named_buffers", "named_children",
    "named_modules", "named_parameters", "parameters", "register_backward_hook", "register_buffer",
    "register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
    "register_full_backward_pre_hook", "register_load_state_dict_post_hook", "register_load_state_dict_pre_hook",
    "register_module", "register_parameter", "register_state_dict_post_hook", "register_state_dict_pre_hook",
    "requires_grad_", "set_extra_state", "set_submodule", "share_memory", "state_dict", "to", "to_empty", "train",
    "type", "xpu", "zero_grad", "training", "_parameters", "_buffers", "_forward_hooks", "_backward_hooks"})
_MODULE_METHODS = frozenset({"parameters", "named_parameters", "children", "named_children", "modules", "zero_grad",
                             "train", "eval", "state_dict", "forward", "to", "cpu", "cuda", "requires_grad_", "add_module",
                             "register_buffer", "register_parameter", "buffers", "named_buffers",
                             "register_module", "apply", "load_state_dict", "register_forward_hook",
                             "register_forward_pre_hook", "named_modules", "register_backward_hook",
                             "register_full_backward_hook", "double", "float"})


def attribute(interpreter: Interpreter, module: Module, name: str, node: ast.AST) -> tuple[bool, Any]:
    """What `module.name` is, after the class's own attributes: its parameters, children, fields."""
    if name in module.fields:
        return True, module.fields[name]
    if name in module.params:
        return True, module.params[name]
    if name in module.children:
        return True, module.children[name]
    if name in module.buffer_values:
        return True, module.buffer_values[name]
    if name == "training":
        return True, module.training
    if name in _MODULE_METHODS:
        return True, NativeMethod(module, name)
    if (isinstance(module, ModuleList) and name in ("append", "extend", "insert")) or (
            isinstance(module, ModuleDict) and name in ("keys", "values", "items")) or (
            isinstance(module, Sequential) and name == "append"):
        return True, NativeMethod(module, name)
    if isinstance(module, Linear) and name in ("in_features", "out_features"):
        return True, getattr(module, name)
    if module.label.startswith("Conv") and name in _CONV_FIELDS:
        return True, getattr(module, name)
    if isinstance(module, attention.Transformer) and name == "generate_square_subsequent_mask":  # (a staticmethod)
        from gradcli.run.python import Builtin

        return True, Builtin(name, attention.generate_square_subsequent_mask)
    return False, None


# what a file may call on a module whose lazy parameters are not drawn yet (the others read or write them)
_LAZY_SAFE = frozenset({"parameters", "named_parameters", "children", "named_children", "modules", "named_modules",
                        "train", "eval", "state_dict", "apply", "add_module", "register_module", "keys", "values", "items",
                        "append", "extra_repr", "to", "cpu"})


def call_module_method(interpreter: Interpreter, module: Module, name: str, args: Args, kwargs: Kwargs,
                       node: ast.AST) -> Any:
    if name == "forward":
        return module.forward(interpreter, args, kwargs, node)
    if name not in _LAZY_SAFE and any(isinstance(p, UninitializedParameter) for _, p in module.named_parameters()):
        raise interpreter.refuse(node, f"'.{name}' of a module that holds a lazy module (nn.LazyLinear) before its first "
                                       "call is not supported", "call the module once on an input first")
    if isinstance(module, ModuleDict) and name in ("keys", "values", "items"):
        _bind(name, [], {}, args, kwargs)
        return {"keys": module.children.keys, "values": module.children.values, "items": module.children.items}[name]()
    if name == "append" and isinstance(module, Sequential):
        (added,) = _bind("append", ["module"], {}, args, kwargs).values()
        if isinstance(module, ModuleList):
            module.append(added)
        else:
            if not isinstance(added, Module):
                raise TorchError("TypeError", f"module should be of type: {Module}")
            module.children[str(len(module.children))] = added
        return module
    if isinstance(module, ModuleList) and name == "extend":
        (given,) = _bind("extend", ["modules"], {}, args, kwargs).values()
        module.extend(interpreter, given)
        return module
    if isinstance(module, ModuleList) and name == "insert":
        index, added = _bind("insert", ["index", "module"], {}, args, kwargs).values()
        items = list(module.children.values())
        items.insert(int(index), added)
        module.children = {}
        for each in items:
            module.append(each)
        return None
    if name in ("parameters", "named_parameters"):
        bound = _bind(name, ["recurse"] if name == "parameters" else ["prefix", "recurse", "remove_duplicate"],
                      {"recurse": True, "prefix": "", "remove_duplicate": True}, args, kwargs)
        pairs = module.named_parameters(bound["prefix"])
        if not bound["recurse"]:
            pairs = iter([(bound["prefix"] + k, v) for k, v in module.params.items() if v is not None])
        if name == "parameters":
            return Lazy("generator object Module.parameters", (tensor for _, tensor in pairs))
        return Lazy("generator object Module.named_parameters", pairs)
    if name in ("children", "named_children"):
        children, seen = [], set()
        for key, child in module.children.items():  # (each once, as PyTorch's named_children)
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                children.append((key, child))
        if name == "children":
            return Lazy("generator object Module.children", iter([child for _, child in children]))
        return Lazy("generator object Module.named_children", iter(children))
    if name == "modules":
        once = _bind(name, ["remove_duplicate"], {"remove_duplicate": True}, args, kwargs)["remove_duplicate"]
        return Lazy("generator object Module.modules", (each for _, each in _named_modules(module, "", bool(once))))
    if name == "zero_grad":
        bound = _bind("zero_grad", ["set_to_none"], {"set_to_none": True}, args, kwargs)
        for _, tensor in module.named_parameters():
            _zero_grad(interpreter, tensor, bound["set_to_none"])
        return None
    if name in ("train", "eval"):
        mode = _bind("train", ["mode"], {"mode": True}, args, kwargs)["mode"] if name == "train" else False
        for each in module.modules():
            each.training = bool(mode)
        return module
    if name == "cuda":  # (PyTorch's CPU build: its errors)
        device = _bind("cuda", ["device"], {"device": None}, args, kwargs)["device"]
        interpreter.on_cpu("cuda" if device is None else device, node, cuda_call=True)
    if name in ("double", "float"):
        _bind(name, [], {}, args, kwargs)
        return _converted(module, FLOAT64 if name == "double" else FLOAT32)
    if name == "to":
        interpreter.check_devices(args, kwargs, node)
        given = [*args, *kwargs.values()]
        if any(isinstance(a, Tensor) for a in given):
            raise interpreter.refuse(node, "'.to' of a module with a tensor is not supported",
                                     "give the dtype: model.to(torch.float64)")
        dtypes = [a.numpy for a in given if isinstance(getattr(a, "numpy", None), np.dtype)]
        if dtypes and any(isinstance(p, UninitializedParameter) for _, p in module.named_parameters()):
            raise interpreter.refuse(node, "'.to' of a module that holds a lazy module (nn.LazyLinear) before its "
                                           "first call with a dtype is not supported", "call the module once first")
        if dtypes:
            if dtypes[0].kind != "f":
                raise TorchError("TypeError", f"nn.Module.to only accepts floating point or complex dtypes, but got "
                                              f"desired dtype=torch.{dtypes[0].name}")
            if dtypes[0] not in (FLOAT64, FLOAT32):
                raise interpreter.refuse(node, f"'.to' of a module to torch.{dtypes[0].name} is not supported")
            return _converted(module, dtypes[0])
    if name in ("to", "cpu"):
        return module
    if name == "requires_grad_":
        flag = _bind("requires_grad_", ["requires_grad"], {"requires_grad": True}, args, kwargs)["requires_grad"]
        for _, tensor in module.named_parameters():
            interpreter.set_requires_grad(tensor, bool(flag))
        return module
    if name in ("add_module", "register_module"):
        bound = _bind(name, ["name", "module"], {}, args, kwargs)
        key, child = bound["name"], bound["module"]
        if not isinstance(key, str):
            raise TorchError("TypeError", f"module name should be a string. Got {_tensor_type(key)}")
        if child is not None and not isinstance(child, Module):
            raise TorchError("TypeError", f"{_tensor_type(child)} is not a Module subclass")
        if "." in key or not key:
            raise TorchError("KeyError", f'"module name can\'t contain \\".\\", got: {key}"' if key
                             else '"module name can\'t be empty string \\"\\""')
        module.children[key] = child
        return None
    if name == "apply":
        (function,) = _bind("apply", ["fn"], {}, args, kwargs).values()
        for child in list(module.children.values()):  # each child's own children first, as Module.apply
            if child is not None:
                call_module_method(interpreter, child, "apply", [function], {}, node)
        interpreter.call(function, [module], {}, node)
        return module
    if name in ("register_buffer", "register_parameter"):
        return _register(interpreter, module, name, args, kwargs)
    if name in ("buffers", "named_buffers"):
        named = list(_named_buffers(module))
        if name == "buffers":
            return Lazy("generator object Module.buffers", iter([tensor for _, tensor in named]))
        return Lazy("generator object Module.named_buffers", iter(named))
    if name == "state_dict":
        state = StateDict()
        for key, value in _named_all(module):
            if isinstance(value, Tensor) and isinstance(value.data, np.ndarray):  # detached, the same storage: a step of the optimizer shows in it
                interpreter.shared[id(value.data)] = value.data
            state[key] = value if value is None or isinstance(value, UninitializedParameter) else Tensor(
                interpreter.graph, value.data)  # (a lazy module's, before its first call: as it is)
        return state
    if name == "load_state_dict":
        return _load_state_dict(interpreter, module, args, kwargs)
    if name in ("register_forward_hook", "register_forward_pre_hook"):
        names = ["hook", "prepend", "with_kwargs", *(["always_call"] if name == "register_forward_hook" else [])]
        bound = _bind(name, names, {"prepend": False, "with_kwargs": False, "always_call": False}, args, kwargs)
        if "hook" not in bound:
            raise PythonError("TypeError", f"Module.{name}() missing 1 required positional argument: 'hook'")
        if bound["with_kwargs"] or bound["always_call"]:
            raise interpreter.refuse(node, f"{name}(..., with_kwargs=True / always_call=True) is not supported")
        hooks = module.__dict__.setdefault("forward_hooks" if name == "register_forward_hook" else "forward_pre_hooks", [])
        return interpreter.hook_handle(bound["hook"], hooks, bool(bound["prepend"]))
    if name in ("register_backward_hook", "register_full_backward_hook"):
        if name == "register_full_backward_hook":
            raise interpreter.refuse(node, "'.register_full_backward_hook' of a module is not supported",
                                     "register_backward_hook(hook) (PyTorch's older form: the hook of the output's "
                                     "node) or register_hook on the tensors")
        bound = _bind(name, ["hook"], {}, args, kwargs)
        if "hook" not in bound:
            raise PythonError("TypeError", f"Module.{name}() missing 1 required positional argument: 'hook'")
        return interpreter.hook_handle(bound["hook"], module.__dict__.setdefault("backward_hooks", []))
    if name == "named_modules":
        bound = _bind(name, ["memo", "prefix", "remove_duplicate"], {"memo": None, "prefix": "", "remove_duplicate": True},
                      args, kwargs)
        return Lazy("generator object Module.named_modules", _named_modules(module, str(bound["prefix"]),
                                                                           bool(bound["remove_duplicate"])))
    raise interpreter.refuse(node, f"'.{name}' of a module is not supported")


def _named_modules(module: Module, prefix: str, once: bool = True) -> Iterator[tuple[str, Module]]:
    """PyTorch's named_modules() and modules(): the module, then its children's, depth first, each once unless
    remove_duplicate=False (a walk with a stack)."""
    seen: set[int] = set()
    stack: list[tuple[str, Module]] = [(prefix, module)]
    while stack:
        name, current = stack.pop()
        if once and id(current) in seen:
            continue
        seen.add(id(current))
        yield name, current
        children = [(f"{name}.{key}" if name else key, child) for key, child in current.children.items()
                    if child is not None]
        stack.extend(reversed(children))


class IncompatibleKeys(tuple[list[str], list[str]]):
    """What load_state_dict returns: PyTorch's _IncompatibleKeys namedtuple, as it prints."""

    def __repr__(self) -> str:
        if not self[0] and not self[1]:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self[0]!r}, unexpected_keys={self[1]!r})"

    __str__ = __repr__


def _load_state_dict(interpreter: Interpreter, module: Module, args: Args, kwargs: Kwargs) -> IncompatibleKeys:
    """m.load_state_dict(d, strict=True): each parameter and buffer takes d's values in place (copy_ under
    no_grad), with PyTorch's errors for missing and unexpected keys and for another shape."""
    bound = _bind("load_state_dict", ["state_dict", "strict", "assign"], {"strict": True, "assign": False}, args, kwargs)
    given = bound.get("state_dict")
    if not isinstance(given, dict):
        raise TorchError("TypeError", f"Expected state_dict to be dict-like, got {_tensor_type(given)}.")
    own = dict(_named_all(module))
    missing = [key for key in own if key not in given]
    unexpected = [key for key in given if key not in own]
    problems = []
    for key, tensor in own.items():
        value = given.get(key)
        if key not in given or tensor is None:
            continue
        if not isinstance(value, Tensor):
            problems.append(f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like '
                            f"object from checkpoint but received {_tensor_type(value)}")
        elif value.data.shape != tensor.data.shape:
            problems.append(f"size mismatch for {key}: copying a param with shape torch.Size("
                            f"{list(value.data.shape)}) from checkpoint, the shape in current model is "
                            f"torch.Size({list(tensor.data.shape)}).")
    if bound["strict"]:
        if unexpected:
            problems.insert(0, "Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected) + ". ")
        if missing:
            problems.insert(0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
    if problems:
        raise runtime_error(f"Error(s) in loading state_dict for {module.type_name()}:\n\t" + "\n\t".join(problems))
    for key, tensor in own.items():
        value = given.get(key)
        if tensor is not None and isinstance(value, Tensor):
            interpreter.overwrite(tensor, value.data.astype(tensor.data.dtype))
    return IncompatibleKeys((missing, unexpected))


def _register(interpreter: Interpreter, module: Module, name: str, args: Args, kwargs: Kwargs) -> None:
    """m.register_buffer(name, tensor, persistent=True) and m.register_parameter(name, param), with
    PyTorch's errors for a bad name or value."""
    what = "buffer" if name == "register_buffer" else "parameter"
    names = ["name", "tensor", "persistent"] if what == "buffer" else ["name", "param"]
    bound = _bind(name, names, {"persistent": True}, args, kwargs)
    key, value = bound["name"], bound["tensor" if what == "buffer" else "param"]
    if not isinstance(key, str):
        raise TorchError("TypeError", f"{what} name should be a string. Got {_tensor_type(key)}")
    if "." in key:
        raise PythonError("KeyError", repr(f'{what} name can\'t contain "."'))
    if key == "":
        raise PythonError("KeyError", repr(f'{what} name can\'t be empty string ""'))
    taken = key in module.fields or key in module.children or (
        key in module.params if what == "buffer" else key in module.buffer_values)
    if taken:
        raise PythonError("KeyError", repr(f"attribute '{key}' already exists"))
    if what == "buffer":
        if value is not None and not isinstance(value, Tensor):
            raise TorchError("TypeError", f"cannot assign '{_tensor_type(value)}' object to buffer '{key}' "
                                          "(torch Tensor or None required)")
        module.buffer_values[key] = value
        if not bound["persistent"]:
            module.transient.add(key)
        return
    if value is None:
        module.params[key] = None
        return
    if not (isinstance(value, Tensor) and value.parameter):
        raise TorchError("TypeError", f"cannot assign '{_tensor_type(value)}' object to parameter '{key}' "
                                      "(torch.nn.Parameter or None required)")
    module.set(interpreter, key, value)


def _converted(module: Module, dtype: np.dtype) -> Module:
    """module.double() / .float() / .to(dtype), as PyTorch's Module._apply: every floating parameter (the same
    Parameter, a new leaf of the converted values), its .grad and every floating buffer take the dtype."""
    seen: set[int] = set()
    for _, tensor in [*module.named_parameters(), *_named_buffers(module)]:
        if id(tensor) in seen or tensor.data.dtype.kind != "f":
            continue
        seen.add(id(tensor))
        tensor.data, tensor.node = tensor.data.astype(dtype), None
        grad = tensor.grad
        if isinstance(grad, Tensor) and grad.data.dtype.kind == "f":
            grad.data, grad.node = grad.data.astype(dtype), None
    return module


def _named_buffers(module: Module, prefix: str = "") -> Iterator[tuple[str, Tensor]]:
    for name, tensor in module.buffer_values.items():
        if tensor is not None:
            yield prefix + name, tensor
    for name, child in module.children.items():
        if child is not None:
            yield from _named_buffers(child, f"{prefix}{name}.")


def _named_all(module: Module, prefix: str = "") -> Iterator[tuple[str, Tensor | None]]:
    for name, tensor in module.params.items():
        if tensor is not None:
            yield prefix + name, tensor
    for name, tensor in module.buffer_values.items():
        if tensor is not None and name not in module.transient:
            yield prefix + name, tensor
    for name, child in module.children.items():
        if child is not None:
            yield from _named_all(child, f"{prefix}{name}.")


def _zero_grad(interpreter: Interpreter, tensor: Tensor, set_to_none: bool) -> None:
    if tensor.grad is None:
        return
    if set_to_none:
        tensor.grad = None
    else:  # in place, as PyTorch's grad.zero_(): a .data of the gradient sees it
        interpreter.overwrite(tensor.grad, np.zeros_like(tensor.grad.data))


# --- optimizers ------------------------------------------------------------------------------------


def _f32(value: float, like: np.ndarray) -> Any:
    return like.dtype.type(value)


def fma(a: np.ndarray, b: Any, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once, as the vectorised kernels' fmadd does (float32 and float64 alike)."""
    if a.dtype == FLOAT32:
        return _fma32(a, b, c)
    return fma64(a, b, c)


def _sqrt(x: np.ndarray) -> np.ndarray:
    """torch.sqrt's kernel: MKL's VML where the mkl extra gives it (gradcli.mkl), else NumPy's."""
    return np.asarray(NUMPY.sqrt(x))


class Optimizer:
    label = "Optimizer"
    names: ClassVar[list[str]] = []
    order: ClassVar[list[str]] = []  # PyTorch's defaults dict, in its order (a state_dict's group keys)
    defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        bound = _bind(f"{self.label}.__init__", ["params", *self.names], self.defaults, args, kwargs)
        params = bound.pop("params")
        groups = interpreter.collect(params, interpreter.node or ast.Pass()) if not isinstance(params, Tensor) else None
        if groups is None:
            raise TorchError("TypeError", "params argument given to the optimizer should be an iterable of Tensors "
                                          "or dicts, but got torch.FloatTensor")
        if groups and isinstance(groups[0], dict):
            self.groups = [{**bound, **group, "params": _group_params(interpreter, group["params"])} for group in groups]
        else:
            if not groups:
                raise TorchError("ValueError", "optimizer got an empty parameter list")
            self.groups = [{**bound, "params": groups}]
        for group in self.groups:
            for tensor in group["params"]:
                interpreter.initialized(interpreter.call_node or interpreter.node or ast.Pass(), tensor)
                if not isinstance(tensor, Tensor):
                    raise TorchError("TypeError", f"optimizer can only optimize Tensors, but one of the params is "
                                                  f"{_tensor_type(tensor)}")
                if not tensor.is_leaf:
                    raise TorchError("ValueError", "can't optimize a non-leaf Tensor")
        # the keys of each group the file wrote (a dict's, in its order), before the defaults PyTorch adds
        self.given = [[k for k in group if k != "params"] for group in groups] if groups and isinstance(
            groups[0], dict) else [[]]
        self.state: dict[int, dict[str, Any]] = {}
        self.interpreter = interpreter
        self.check()

    def check(self) -> None:
        for group in self.groups:
            if group["lr"] < 0:
                raise TorchError("ValueError", f"Invalid learning rate: {group['lr']}")

    def type_name(self) -> str:
        return self.label

    def __repr__(self) -> str:
        text = self.label + " ("
        for index, group in enumerate(self.groups):
            text += f"\nParameter Group {index}\n"
            for key in sorted(k for k in group if k != "params"):
                text += f"    {key}: {group[key]}\n"
        return text + ")"

    __str__ = __repr__

    def zero_grad(self, set_to_none: bool = True) -> None:
        for group in self.groups:
            for tensor in group["params"]:
                _zero_grad(self.interpreter, tensor, set_to_none)

    def step(self) -> None:
        for group in self.groups:
            for tensor in group["params"]:
                if tensor.grad is None:
                    continue
                state = self.state.setdefault(id(tensor), {})
                # in place, as PyTorch's: a .data alias of the parameter sees the step; the graph before keeps
                # the old values (a new leaf from here on)
                self.interpreter.overwrite(tensor, self.update(group, state, tensor.data,
                                                              tensor.grad.data.astype(tensor.data.dtype)))

    def update(self, group: dict[str, Any], state: dict[str, Any], param: np.ndarray, grad: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def state_dict(self) -> dict[str, Any]:
        """PyTorch's optimizer.state_dict(): each parameter's state by its index over the groups (a step
        as a float32 0-d tensor, buffers as tensors), each group's settings in PyTorch's key order with
        its params' indices last."""
        indices: dict[int, int] = {}
        for group in self.groups:
            for tensor in group["params"]:
                indices.setdefault(id(tensor), len(indices))
        state: dict[int, dict[str, Any]] = {}
        for group in self.groups:
            for tensor in group["params"]:
                saved = self.state.get(id(tensor))
                if saved and indices[id(tensor)] not in state:
                    state[indices[id(tensor)]] = {key: self._tensor(value) for key, value in saved.items()}
        groups = []
        for given, group in zip(self.given, self.groups, strict=True):
            keys = [*given, *(k for k in self.order if k not in given)]
            keys += [k for k in group if k not in keys and k != "params"]  # (a scheduler's initial_lr)
            groups.append({**{k: group[k] for k in keys}, "params": [indices[id(t)] for t in group["params"]]})
        return {"state": state, "param_groups": groups}

    def _tensor(self, value: Any) -> Any:
        if isinstance(value, np.ndarray):
            return Tensor(self.interpreter.graph, value.copy())
        if isinstance(value, float):  # (the step count: a float32 tensor, as PyTorch keeps it)
            return Tensor(self.interpreter.graph, np.array(value, dtype=FLOAT32))
        return value

    def load_state_dict(self, saved: Any) -> None:
        """optimizer.load_state_dict(d): the groups' settings and the parameters' state from d (copies)."""
        if not isinstance(saved, dict) or "param_groups" not in saved or "state" not in saved:
            raise TorchError("KeyError", "'param_groups'")
        groups = saved["param_groups"]
        if not isinstance(groups, list) or len(groups) != len(self.groups):
            raise TorchError("ValueError", "loaded state dict has a different number of parameter groups")
        for mine, theirs in zip(self.groups, groups, strict=True):
            if not isinstance(theirs, dict) or len(theirs.get("params", [])) != len(mine["params"]):
                raise TorchError("ValueError", "loaded state dict contains a parameter group that doesn't match "
                                               "the size of optimizer's group")
        tensors: dict[Any, Tensor] = {}
        for mine, theirs in zip(self.groups, groups, strict=True):
            tensors.update(zip(theirs["params"], mine["params"], strict=True))
            mine.update({k: v for k, v in theirs.items() if k != "params"})
        self.state = {}
        for index, values in saved["state"].items():
            tensor = tensors.get(index)
            if tensor is None or not isinstance(values, dict):
                continue
            self.state[id(tensor)] = {
                key: (float(value.data) if key == "step" else value.data.astype(tensor.data.dtype))
                if isinstance(value, Tensor) else value for key, value in values.items()}


def _group_params(interpreter: Interpreter, params: Any) -> list[Any]:
    """A param group's 'params': one tensor is a list of it, as PyTorch's add_param_group reads it."""
    if isinstance(params, Tensor):
        return [params]
    return interpreter.collect(params, interpreter.node or ast.Pass())


class SGD(Optimizer):
    label = "SGD"
    names: ClassVar[list[str]] = ["lr", "momentum", "dampening", "weight_decay", "nesterov", "maximize", "foreach", "differentiable", "fused"]
    defaults: ClassVar[dict[str, Any]] = {"lr": 0.001, "momentum": 0, "dampening": 0, "weight_decay": 0, "nesterov": False, "maximize": False,
                "foreach": None, "differentiable": False, "fused": None}
    order: ClassVar[list[str]] = names

    def check(self) -> None:
        super().check()
        for group in self.groups:
            if group["nesterov"] and (group["momentum"] <= 0 or group["dampening"] != 0):
                raise TorchError("ValueError", "Nesterov momentum requires a momentum and zero dampening")

    def update(self, group: dict[str, Any], state: dict[str, Any], param: np.ndarray, grad: np.ndarray) -> np.ndarray:
        # PyTorch's _single_tensor_sgd: grad.add(param, alpha=wd); buf.mul_(m).add_(grad, alpha=1-d); ...
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = fma(param, _f32(group["weight_decay"], param), grad)
        momentum = group["momentum"]
        if momentum != 0:
            buffer = state.get("momentum_buffer")
            if buffer is None:
                buffer = grad.copy()
            else:
                buffer = fma(grad, _f32(1 - group["dampening"], param), buffer * _f32(momentum, param))
            state["momentum_buffer"] = buffer
            grad = fma(buffer, _f32(momentum, param), grad) if group["nesterov"] else buffer
        return fma(grad, _f32(-group["lr"], param), param)


class Adam(Optimizer):
    label = "Adam"
    names: ClassVar[list[str]] = ["lr", "betas", "eps", "weight_decay", "amsgrad", "foreach", "maximize", "capturable", "differentiable",
             "fused", "decoupled_weight_decay"]
    defaults: ClassVar[dict[str, Any]] = {"lr": 0.001, "betas": (0.9, 0.999), "eps": 1e-08, "weight_decay": 0, "amsgrad": False,
                "foreach": None, "maximize": False, "capturable": False, "differentiable": False, "fused": None,
                "decoupled_weight_decay": False}
    order: ClassVar[list[str]] = ["lr", "betas", "eps", "weight_decay", "amsgrad", "maximize", "foreach", "capturable",
                                  "differentiable", "fused", "decoupled_weight_decay"]
    decoupled = False

    def update(self, group: dict[str, Any], state: dict[str, Any], param: np.ndarray, grad: np.ndarray) -> np.ndarray:
        # PyTorch's _single_tensor_adam, operation by operation in the parameter's dtype.
        beta1, beta2 = (float(b) for b in group["betas"])
        lr, eps, decay = float(group["lr"]), float(group["eps"]), float(group["weight_decay"])
        if group["maximize"]:
            grad = -grad
        if not state:
            state.update(step=0.0, exp_avg=np.zeros_like(param), exp_avg_sq=np.zeros_like(param))
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = np.zeros_like(param)
        state["step"] += 1
        if decay != 0:
            if self.decoupled or group.get("decoupled_weight_decay"):
                param = param * _f32(1 - lr * decay, param)
            else:
                grad = fma(param, _f32(decay, param), grad)
        average, square = state["exp_avg"], state["exp_avg_sq"]
        weight = _f32(1 - beta1, param)
        # lerp_(grad, w): w + (grad - avg) * w below a half, as its vectorised kernel fuses it
        difference = grad - average
        average = fma(difference, weight, average) if abs(weight) < 0.5 else \
            fma(difference, weight - 1, grad)
        # mul_(beta2).addcmul_(grad, grad, value=1 - beta2): addcmul's kernel is compiled to one fmadd
        square = fma(_f32(1 - beta2, param) * grad, grad, square * _f32(beta2, param))
        step = state["step"]
        correction1 = 1 - beta1**step
        correction2 = 1 - beta2**step
        step_size = lr / correction1
        root = correction2**0.5
        if group["amsgrad"]:  # torch.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq), its root the denominator's
            state["max_exp_avg_sq"] = square_max = np.maximum(state["max_exp_avg_sq"], square)
        # (exp_avg_sq.sqrt() / root).add_(eps): a division by the number, not a product by its reciprocal
        denominator = _sqrt(square_max if group["amsgrad"] else square) / _f32(root, param) + _f32(eps, param)
        state["exp_avg"], state["exp_avg_sq"] = average, square
        return param + (_f32(-step_size, param) * average) / denominator


class AdamW(Adam):
    label = "AdamW"
    defaults: ClassVar[dict[str, Any]] = {**Adam.defaults, "weight_decay": 0.01, "decoupled_weight_decay": True}
    decoupled = True


class Adagrad(Optimizer):
    label = "Adagrad"
    names: ClassVar[list[str]] = ["lr", "lr_decay", "weight_decay", "initial_accumulator_value", "eps", "foreach",
                                  "maximize", "differentiable", "fused"]
    defaults: ClassVar[dict[str, Any]] = {"lr": 0.01, "lr_decay": 0, "weight_decay": 0, "initial_accumulator_value": 0,
                                          "eps": 1e-10, "foreach": None, "maximize": False, "differentiable": False,
                                          "fused": None}
    order: ClassVar[list[str]] = ["lr", "lr_decay", "eps", "weight_decay", "initial_accumulator_value", "foreach",
                                  "maximize", "differentiable", "fused"]

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__(interpreter, args, kwargs)
        for group in self.groups:  # (PyTorch's Adagrad makes each parameter's state in its constructor)
            for tensor in group["params"]:
                self.state[id(tensor)] = {"step": 0.0, "sum": np.full_like(tensor.data,
                                                                           group["initial_accumulator_value"])}

    def update(self, group: dict[str, Any], state: dict[str, Any], param: np.ndarray, grad: np.ndarray) -> np.ndarray:
        # PyTorch's _single_tensor_adagrad: sum.addcmul_(g, g); std = sum.sqrt().add_(eps); p.addcdiv_(g, std, -clr)
        if not state:
            state.update(step=0.0, sum=np.full_like(param, group["initial_accumulator_value"]))
        state["step"] += 1
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = fma(param, _f32(group["weight_decay"], param), grad)
        rate = group["lr"] / (1 + (state["step"] - 1) * group["lr_decay"])
        state["sum"] = total = fma(grad, grad, state["sum"])
        deviation = _sqrt(total) + _f32(group["eps"], param)
        return param + (_f32(-rate, param) * grad) / deviation


class RMSprop(Optimizer):
    label = "RMSprop"
    names: ClassVar[list[str]] = ["lr", "alpha", "eps", "weight_decay", "momentum", "centered", "capturable", "foreach",
                                  "maximize", "differentiable"]
    defaults: ClassVar[dict[str, Any]] = {"lr": 0.01, "alpha": 0.99, "eps": 1e-08, "weight_decay": 0, "momentum": 0,
                                          "centered": False, "capturable": False, "foreach": None, "maximize": False,
                                          "differentiable": False}
    order: ClassVar[list[str]] = ["lr", "momentum", "alpha", "eps", "centered", "weight_decay", "capturable", "foreach",
                                  "maximize", "differentiable"]

    def update(self, group: dict[str, Any], state: dict[str, Any], param: np.ndarray, grad: np.ndarray) -> np.ndarray:
        # PyTorch's _single_tensor_rmsprop: avg.mul_(alpha).addcmul_(g, g, 1 - alpha); p.addcdiv_(g, avg.sqrt() + eps, -lr)
        if not state:
            state.update(step=0.0, square_avg=np.zeros_like(param))
            if group["momentum"] > 0:
                state["momentum_buffer"] = np.zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = np.zeros_like(param)
        state["step"] += 1
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = fma(param, _f32(group["weight_decay"], param), grad)
        average = state["square_avg"] * _f32(group["alpha"], param)
        state["square_avg"] = average = fma(_f32(1 - group["alpha"], param) * grad, grad, average)
        if group["centered"]:  # grad_avg.lerp_(grad, 1 - alpha); square_avg.addcmul(grad_avg, grad_avg, value=-1)
            weight, mean = _f32(1 - group["alpha"], param), state["grad_avg"]
            state["grad_avg"] = mean = fma(grad - mean, weight, mean) if abs(weight) < 0.5 else \
                fma(grad - mean, weight - 1, grad)
            average = fma(-mean, mean, average)
        root = _sqrt(average) + _f32(group["eps"], param)
        if group["momentum"] > 0:
            buffer = state["momentum_buffer"] * _f32(group["momentum"], param) + grad / root
            state["momentum_buffer"] = buffer
            return fma(buffer, _f32(-group["lr"], param), param)
        return param + (_f32(-group["lr"], param) * grad) / root


OPTIMIZERS: dict[str, type[Any]] = {"SGD": SGD, "Adam": Adam, "AdamW": AdamW, "Adagrad": Adagrad, "RMSprop": RMSprop}


def call_optimizer_method(interpreter: Interpreter, optimizer: Optimizer, name: str, args: Args, kwargs: Kwargs,
                          node: ast.AST) -> Any:
    if name == "zero_grad":
        optimizer.zero_grad(bool(_bind("zero_grad", ["set_to_none"], {"set_to_none": True}, args, kwargs)["set_to_none"]))
        return None
    if name == "step":
        if args or kwargs:
            raise interpreter.refuse(node, "optimizer.step(closure) is not supported")
        optimizer.step()
        return None
    if name == "state_dict":
        _bind(name, [], {}, args, kwargs)
        return optimizer.state_dict()
    if name == "load_state_dict":
        optimizer.load_state_dict(_bind(name, ["state_dict"], {}, args, kwargs).get("state_dict"))
        return None
    raise interpreter.refuse(node, f"'.{name}' of an optimizer is not supported")


def optimizer_attribute(optimizer: Optimizer, name: str) -> tuple[bool, Any]:
    if name in ("zero_grad", "step", "state_dict", "load_state_dict"):
        return True, NativeMethod(optimizer, name)
    if name == "param_groups":
        return True, optimizer.groups
    if name == "defaults":
        return True, {k: v for k, v in optimizer.groups[0].items() if k != "params"}
    return False, None


# --- torch.nn.init ------------------------------------------------------------------------------

INIT: dict[str, tuple[list[str], dict[str, Any]]] = {"uniform_": (["tensor", "a", "b", "generator"], {"a": 0.0, "b": 1.0, "generator": None}),
        "normal_": (["tensor", "mean", "std", "generator"], {"mean": 0.0, "std": 1.0, "generator": None}),
        "constant_": (["tensor", "val"], {}),
        "zeros_": (["tensor"], {}),
        "ones_": (["tensor"], {}),
        "eye_": (["tensor"], {}),
        "xavier_uniform_": (["tensor", "gain", "generator"], {"gain": 1.0, "generator": None}),
        "xavier_normal_": (["tensor", "gain", "generator"], {"gain": 1.0, "generator": None}),
        "kaiming_uniform_": (["tensor", "a", "mode", "nonlinearity", "generator"],
                             {"a": 0.0, "mode": "fan_in", "nonlinearity": "leaky_relu", "generator": None}),
        "kaiming_normal_": (["tensor", "a", "mode", "nonlinearity", "generator"],
                            {"a": 0.0, "mode": "fan_in", "nonlinearity": "leaky_relu", "generator": None}),
        "trunc_normal_": (["tensor", "mean", "std", "a", "b", "generator"],
                          {"mean": 0.0, "std": 1.0, "a": -2.0, "b": 2.0, "generator": None}),
        "orthogonal_": (["tensor", "gain", "generator"], {"gain": 1, "generator": None}),
        "dirac_": (["tensor", "groups"], {"groups": 1}),
        "sparse_": (["tensor", "sparsity", "std", "generator"], {"std": 0.01, "generator": None})}
_GAINS = {"linear": 1.0, "conv1d": 1.0, "conv2d": 1.0, "conv3d": 1.0, "sigmoid": 1.0, "tanh": 5.0 / 3, "relu": math.sqrt(2.0),
          "selu": 3.0 / 4}


def _fans(shape: tuple[int, ...]) -> tuple[int, int]:
    """PyTorch's _calculate_fan_in_and_fan_out."""
    if len(shape) < 2:
        raise TorchError("ValueError", "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def _gain(nonlinearity: str, a: float) -> float:
    if nonlinearity == "leaky_relu":
        return math.sqrt(2.0 / (1 + a**2))
    if nonlinearity not in _GAINS:
        raise TorchError("ValueError", f"Unsupported nonlinearity {nonlinearity}")
    return _GAINS[nonlinearity]


def calculate_gain(args: Args, kwargs: Kwargs) -> float | int:
    """nn.init.calculate_gain(nonlinearity, param=None): PyTorch's gains (an int 1 for the linear ones)."""
    bound = _bind("calculate_gain", ["nonlinearity", "param"], {"param": None}, args, kwargs)
    if "nonlinearity" not in bound:
        raise PythonError("TypeError", "calculate_gain() missing 1 required positional argument: 'nonlinearity'")
    nonlinearity, param = bound["nonlinearity"], bound["param"]
    if nonlinearity in _LINEAR_GAINS:
        return 1
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise TorchError("ValueError", f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if not isinstance(nonlinearity, str) or nonlinearity not in _GAINS:
        raise TorchError("ValueError", f"Unsupported nonlinearity {nonlinearity}")
    return _GAINS[nonlinearity]


_LINEAR_GAINS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
                 "sigmoid")


def init_call(interpreter: Interpreter, name: str, args: Args, kwargs: Kwargs, node: ast.AST) -> Tensor:
    """nn.init.<name>_(tensor, ...): the tensor's values drawn or set in place, as PyTorch's init does
    them (under no_grad, from torch's generator)."""
    names, defaults = INIT[name]
    bound = _bind(name, names, defaults, args, kwargs)
    tensor = bound["tensor"]
    if not isinstance(tensor, Tensor) or tensor.data.dtype.kind != "f":
        raise interpreter.refuse(node, f"nn.init.{name} of a {_tensor_type(tensor)} is not supported")
    if bound.get("generator") is not None:
        raise interpreter.refuse(node, f"nn.init.{name} with a generator= is not supported")
    for required in names[1:]:
        if required not in bound and required not in defaults:
            raise PythonError("TypeError", f"{name}() missing 1 required positional argument: '{required}'")
    values = np.empty_like(tensor.data)
    generator = interpreter.generator
    if name in _SHAPED_INIT:
        made = _SHAPED_INIT[name](interpreter, values, bound, node)
        if made is None:
            return tensor
        values = made
    elif name == "uniform_":
        generator.uniform_(values, float(bound["a"]), float(bound["b"]))
    elif name == "normal_":
        generator.normal_(values, float(bound["mean"]), float(bound["std"]))
    elif name in ("constant_", "zeros_", "ones_"):
        values[...] = bound["val"] if name == "constant_" else (0 if name == "zeros_" else 1)
    elif name == "eye_":  # (the identity, rectangular as torch.eye(n, m) makes it)
        if values.ndim != 2:
            raise TorchError("ValueError", "Only tensors with 2 dimensions are supported")
        values[...] = np.eye(*values.shape)
    elif name.startswith("xavier"):
        fan_in, fan_out = _fans(values.shape)
        std = float(bound["gain"]) * math.sqrt(2.0 / float(fan_in + fan_out))
        if name == "xavier_uniform_":
            generator.uniform_(values, -math.sqrt(3.0) * std, math.sqrt(3.0) * std)
        else:
            generator.normal_(values, 0.0, std)
    else:  # kaiming
        if 0 in values.shape:
            return tensor  # (PyTorch warns "Initializing zero-element tensors is a no-op")
        fan_in, fan_out = _fans(values.shape)
        mode = bound["mode"]
        if mode not in ("fan_in", "fan_out"):
            raise TorchError("ValueError", f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
        std = _gain(str(bound["nonlinearity"]), float(bound["a"])) / math.sqrt(fan_in if mode == "fan_in" else fan_out)
        if name == "kaiming_uniform_":
            generator.uniform_(values, -math.sqrt(3.0) * std, math.sqrt(3.0) * std)
        else:
            generator.normal_(values, 0.0, std)
    interpreter.overwrite(tensor, values)
    return tensor


def _trunc_normal(interpreter: Interpreter, values: np.ndarray, bound: dict[str, Any], node: ast.AST) -> np.ndarray:
    """PyTorch 2.13's trunc_normal_ where [a, b] holds more than 0.3 of N(mean, std): normal draws of the whole
    tensor, each element outside [a, b] (as the tensor's dtype holds them) taken from a fresh whole draw."""
    mean, std, a, b = (float(bound[key]) for key in ("mean", "std", "a", "b"))
    mass = (math.erf((b - mean) / std / math.sqrt(2.0)) - math.erf((a - mean) / std / math.sqrt(2.0))) / 2.0
    if not mass > 0.3:
        raise interpreter.refuse(node, "nn.init.trunc_normal_ over [a, b] holding 0.3 or less of the normal's mass "
                                       "(PyTorch's rejection of uniform draws) is not supported")
    if mean < a - 2 * std or mean > b + 2 * std:
        interpreter.warn("UserWarning", "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                         "The distribution of values may be incorrect.", node)
    kind = values.dtype.type
    low, high = kind(a), kind(b)
    generator = interpreter.generator
    generator.normal_(values, mean, std)
    while True:
        outside = (values < low) | (values > high)
        if not outside.any():
            return values
        interpreter.tick(node)
        values = np.where(outside, generator.normal_(np.empty_like(values), mean, std), values)


def _orthogonal(interpreter: Interpreter, values: np.ndarray, bound: dict[str, Any], node: ast.AST) -> np.ndarray | None:
    """orthogonal_: the Q of a normal draw's QR (of its transpose when it is wide), its columns' signs made those
    of R's diagonal, times gain; LAPACK's Householder QR, as PyTorch calls it."""
    from gradcli.ops.decompositions import _qr_factors

    if values.ndim < 2:
        raise TorchError("ValueError", "Only tensors with 2 or more dimensions are supported")
    if not values.size:
        return None
    rows = values.shape[0]
    flattened = interpreter.generator.normal_(np.empty((rows, values.size // rows), dtype=values.dtype))
    wide = rows < flattened.shape[1]
    q, r = _qr_factors(flattened.T if wide else flattened, "reduced")
    q = q * np.sign(np.diagonal(r)).astype(q.dtype)
    q = (q.T if wide else q).astype(values.dtype)
    return (q * values.dtype.type(bound["gain"])).reshape(values.shape)


def _dirac(interpreter: Interpreter, values: np.ndarray, bound: dict[str, Any], node: ast.AST) -> np.ndarray:
    """dirac_: zeros with a one at the centre of each kept channel's kernel, groups of output channels apart."""
    if values.ndim not in (3, 4, 5):
        raise TorchError("ValueError", "Only tensors with 3, 4, or 5 dimensions are supported")
    groups = int(bound["groups"])
    if values.shape[0] % groups != 0:
        raise TorchError("ValueError", "dim 0 must be divisible by groups")
    per_group = values.shape[0] // groups
    values[...] = 0
    centre = tuple(size // 2 for size in values.shape[2:])
    for group in range(groups):
        for d in range(min(per_group, values.shape[1])):
            values[(group * per_group + d, d, *centre)] = 1
    return values


def _sparse(interpreter: Interpreter, values: np.ndarray, bound: dict[str, Any], node: ast.AST) -> np.ndarray:
    """sparse_: N(0, std) draws, then in each column the rows of the first ceil(sparsity * rows) places of a
    torch.randperm(rows) zeroed."""
    if values.ndim != 2:
        raise TorchError("ValueError", "Only tensors with 2 dimensions are supported")
    rows, cols = values.shape
    zeros = math.ceil(float(bound["sparsity"]) * rows)
    generator = interpreter.generator
    generator.normal_(values, 0.0, float(bound["std"]))
    for column in range(cols):
        values[generator.randperm(rows)[:zeros], column] = 0
    return values


_SHAPED_INIT = {"trunc_normal_": _trunc_normal, "orthogonal_": _orthogonal, "dirac_": _dirac, "sparse_": _sparse}


# --- torch.nn.utils: gradient clipping ------------------------------------------------------------

UTILS: dict[str, tuple[list[str], dict[str, Any]]] = {"clip_grad_norm_": (["parameters", "max_norm", "norm_type", "error_if_nonfinite", "foreach"],
                             {"norm_type": 2.0, "error_if_nonfinite": False, "foreach": None}),
         "clip_grad_value_": (["parameters", "clip_value", "foreach"], {"foreach": None})}


def utils_call(interpreter: Interpreter, name: str, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
    """nn.utils.clip_grad_norm_ / clip_grad_value_ as PyTorch 2.13 computes them under no_grad: each
    gradient's vector_norm, the norm of their stack, max_norm * reciprocal(norm + 1e-6) clamped to 1
    multiplying every gradient in place (clip_grad_value_: each gradient clamped in place)."""
    names, defaults = UTILS[name]
    bound = _bind(name, names, defaults, args, kwargs)
    for required in names[:2]:
        if required not in bound:
            raise PythonError("TypeError", f"{name}() missing 1 required positional argument: '{required}'")
    given = bound["parameters"]
    parameters = [given] if isinstance(given, Tensor) else interpreter.collect(given, node)
    grads = [p.grad for p in parameters if isinstance(p, Tensor) and p.grad is not None]
    before = interpreter.graph.grad_enabled
    interpreter.graph.grad_enabled = False
    try:
        if name == "clip_grad_value_":
            limit = float(bound["clip_value"])
            for grad in grads:
                interpreter.in_place_op(grad, "clamp_", [], {"min": -limit, "max": limit}, node)
            return None
        norm_type = float(bound["norm_type"])
        if not grads:
            return Tensor(interpreter.graph, np.array(0.0, dtype=FLOAT32))
        norms = [interpreter.call_op("torch.linalg.vector_norm", [grad, norm_type], {}, node) for grad in grads]
        stacked = interpreter.call_op("torch.stack", [norms], {}, node)
        total = interpreter.call_op("torch.linalg.vector_norm", [stacked, norm_type], {}, node)
        if bound["error_if_nonfinite"] and not np.all(np.isfinite(total.data)):
            raise runtime_error(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
                                f"so it cannot be clipped. To disable this error and scale the gradients by the "
                                f"non-finite norm anyway, set `error_if_nonfinite=False`")
        coefficient = interpreter.binary("/", float(bound["max_norm"]), interpreter.binary("+", total, 1e-6, node), node)
        clamped = interpreter.call_op("torch.clamp", [coefficient], {"max": 1.0}, node)
        for grad in grads:
            interpreter.in_place(grad, "*", clamped, node)
        return total
    finally:
        interpreter.graph.grad_enabled = before


# --- copy.deepcopy and copy.copy ------------------------------------------------------------------

_ATOMS = (type(None), bool, int, float, complex, str, bytes, range)


def copy_call(interpreter: Interpreter, name: str, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
    """copy.deepcopy(x) of tensors, modules, the file's objects and the containers holding them, as
    Python's copy protocol and PyTorch's Tensor.__deepcopy__ make them (shared items stay shared);
    copy.copy(x) of lists, dicts and sets (a tensor or a module: exit 2)."""
    bound = _bind(name, ["x", "memo"] if name == "deepcopy" else ["x"], {"memo": None}, args, kwargs)
    if "x" not in bound:
        raise PythonError("TypeError", f"{name}() missing 1 required positional argument: 'x'")
    value = bound["x"]
    if name == "copy":
        if isinstance(value, (list, dict, set)) and not isinstance(value, StateDict):
            return value.copy()
        if isinstance(value, (*_ATOMS, tuple)):
            return value
        raise interpreter.refuse(node, f"copy.copy of a {_tensor_type(value)} is not supported",
                                 "copy.deepcopy(x) or x.clone() are")
    return _deep_copy(interpreter, value, {}, node)


def _deep_copy(interpreter: Interpreter, value: Any, memo: dict[int, Any], node: ast.AST) -> Any:
    from gradcli.run.python import Instance

    if isinstance(value, _ATOMS) or isinstance(value, (NativeClass, UserClass)) or callable(value):
        return value
    if id(value) in memo:
        return memo[id(value)]
    interpreter.tick(node)
    made: Any
    if isinstance(value, Tensor):
        if not value.is_leaf:
            raise runtime_error("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                                "protocol at the moment.  If you were attempting to deepcopy a module, this may be "
                                "because of a torch.nn.utils.weight_norm usage, see "
                                "https://github.com/pytorch/pytorch/pull/103001")
        made = Tensor(interpreter.graph, value.data.copy(), requires_grad=value.requires_grad)
        made.parameter = value.parameter
        memo[id(value)] = made
        if value.grad is not None and not value.parameter:  # (Parameter.__deepcopy__ makes a new one, without grad)
            made.grad = _deep_copy(interpreter, value.grad, memo, node)
        return made
    if isinstance(value, (list, dict, set, tuple)):
        interpreter.check_items(len(value), node)
        if isinstance(value, dict):
            made = type(value)() if isinstance(value, StateDict) else {}
            memo[id(value)] = made
            for key, item in value.items():
                made[_deep_copy(interpreter, key, memo, node)] = _deep_copy(interpreter, item, memo, node)
            return made
        if isinstance(value, list):
            made = []
            memo[id(value)] = made
            made.extend(_deep_copy(interpreter, item, memo, node) for item in value)
            return made
        items = [_deep_copy(interpreter, item, memo, node) for item in value]
        return set(items) if isinstance(value, set) else tuple(items)
    if isinstance(value, (Module, Instance)):
        made = copy.copy(value)
        memo[id(value)] = made
        made.fields = {key: _deep_copy(interpreter, item, memo, node) for key, item in value.fields.items()}
        if isinstance(value, Module):
            made.params = {key: _deep_copy(interpreter, item, memo, node) for key, item in value.params.items()}
            made.children = {key: _deep_copy(interpreter, item, memo, node) for key, item in value.children.items()}
            made.buffer_values = {key: _deep_copy(interpreter, item, memo, node)
                                  for key, item in value.buffer_values.items()}
            made.transient = set(value.transient)
            for hooks in ("forward_hooks", "forward_pre_hooks"):  # (the copy's own lists of the same hooks)
                if hooks in value.__dict__:
                    setattr(made, hooks, [])
                    for handle in value.__dict__[hooks]:
                        interpreter.hook_handle(handle.function, getattr(made, hooks))
            for key, item in vars(value).items():  # (a native module's own tensors: BatchNorm's, ...)
                if isinstance(item, (Tensor, Module, list, dict)) and key not in (
                        "fields", "params", "children", "buffer_values", "forward_hooks", "forward_pre_hooks"):
                    setattr(made, key, _deep_copy(interpreter, item, memo, node))
        return made
    raise interpreter.refuse(node, f"copy.deepcopy of a {_tensor_type(value)} is not supported",
                             "gradcli run copies tensors, modules, the file's objects, lists, tuples and dicts")


from gradcli.run import recurrent  # noqa: E402  (nn.RNN, nn.LSTM, nn.GRU and the cells: modules of this file's kind)

MODULES.update(recurrent.MODULES)

from gradcli.run import attention  # noqa: E402  (nn.MultiheadAttention and the Transformer's layers)

MODULES.update(attention.MODULES)
