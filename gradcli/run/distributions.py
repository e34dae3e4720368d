"""torch.distributions' Normal, Bernoulli, Categorical and Multinomial under `gradcli run`, as PyTorch's
(read in torch/distributions; nothing here is its code).

Each is built from the op table's calls, in PyTorch's order, so its values and graphs are PyTorch's
(rsample's AddBackward0 over the loc and a MulBackward0, log_prob's SubBackward0, a Categorical's
DivBackward0 of normalized probs ...), and draws from torch's generator as PyTorch's do: Normal.sample
is torch.normal (normal_ times the scale plus the loc, without a graph), rsample normal_ then
loc + eps * scale, Bernoulli.sample torch.bernoulli, Categorical.sample torch.multinomial of the rows
with replacement, Multinomial.sample the Categorical's total_count samples counted by scatter_add.
Parameters are checked on construction (validate_args, PyTorch's default) and a log_prob's value
against the support, with PyTorch's ValueError; `probs` and `logits` not given are computed when first
read and then shown by repr, as PyTorch's lazy properties are.
"""

from __future__ import annotations

import ast
import math
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from gradcli.run.python import Builtin, PythonError, bind_by_name
from gradcli.run.tensor import FLOAT32, INT64, Tensor, TorchError

if TYPE_CHECKING:
    from gradcli.run.interpreter import Interpreter

CLASSES = ("Normal", "Bernoulli", "Categorical", "Multinomial")
SUBMODULES = {"normal": "Normal", "bernoulli": "Bernoulli", "categorical": "Categorical", "multinomial": "Multinomial"}


def _formatted(value: Tensor) -> str:
    """f"{t}" as PyTorch formats a tensor: a 0-d one as its number, another as its repr."""
    return format(value.data.item()) if value.data.ndim == 0 else repr(value)


def _size(shape: tuple[int, ...]) -> Any:
    from gradcli.run.interpreter import Size  # (the run's torch.Size, which imports this file)

    return Size(shape)


class Distribution:
    """One distribution object: its parameters (PyTorch's __dict__, in the order they were set) and shapes."""

    label = "Distribution"
    constraints: ClassVar[dict[str, str]] = {}  # a parameter: its constraint, as PyTorch's arg_constraints, in order
    methods: tuple[str, ...] = ()
    properties: tuple[str, ...] = ()

    def __init__(self, interpreter: Interpreter, node: ast.AST) -> None:
        self.interpreter, self.node = interpreter, node
        self.params: dict[str, Any] = {}
        self.batch_shape: tuple[int, ...] = ()
        self.event_shape: tuple[int, ...] = ()

    def op(self, spelled: str, *args: Any, **kwargs: Any) -> Any:
        return self.interpreter.call_op(spelled, list(args), kwargs, self.node)

    def __repr__(self) -> str:
        shown = []
        for name in self.constraints:
            if name in self.params:
                value = self.params[name]
                text = _formatted(value) if value.data.size == 1 else repr(_size(value.data.shape))
                shown.append(f"{name}: {text}")
        return f"{self.label}({', '.join(shown)})"

    def type_name(self) -> str:
        return self.label

    def validate(self) -> None:
        for name, constraint in self.constraints.items():
            if name not in self.params:
                continue
            value = self.params[name].data
            if not _holds(constraint, value).all():
                raise TorchError("ValueError", f"Expected parameter {name} (Tensor of shape {tuple(value.shape)}) of "
                                               f"distribution {self!r} to satisfy the constraint {_CONSTRAINTS[constraint]}, "
                                               f"but found invalid values:\n{_formatted(self.params[name])}")

    def validate_sample(self, value: Any, support: str) -> None:
        if not isinstance(value, Tensor):
            raise TorchError("ValueError", "The value argument to log_prob must be a Tensor")
        shape = tuple(value.data.shape)
        expected = self.batch_shape + self.event_shape
        event = len(self.event_shape)
        if event and shape[len(shape) - event:] != self.event_shape:
            raise TorchError("ValueError", f"The right-most size of value must match event_shape: {_size(shape)!r} vs "
                                           f"{_size(self.event_shape)!r}.")
        try:
            np.broadcast_shapes(shape, expected)
        except ValueError:
            raise TorchError("ValueError", f"Value is not broadcastable with batch_shape+event_shape: {_size(shape)!r} vs "
                                           f"{_size(expected)!r}.") from None
        if not _holds(support, value.data).all():
            raise TorchError("ValueError", f"Expected value argument (Tensor of shape {shape}) to be within the support "
                                           f"({_CONSTRAINTS[support]}) of the distribution {self!r}, but found invalid "
                                           f"values:\n{_formatted(value)}")

    def extended(self, sample_shape: Any) -> tuple[int, ...]:
        return _shape(sample_shape) + self.batch_shape + self.event_shape

    def attribute(self, name: str) -> Any:
        if name in ("batch_shape", "event_shape"):
            return _size(getattr(self, name))
        if name in self.methods:
            return Builtin(name, lambda interpreter, args, kwargs, where: self.call(name, args, kwargs))
        if name in self.properties:
            return self.read(name)
        where = self.interpreter.call_node or self.interpreter.node or self.node
        raise self.interpreter.refuse(where, f"'.{name}' of a torch.distributions.{self.label} is not supported")

    def call(self, name: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
        names = ["sample_shape"] if name in ("sample", "rsample") else ["value"] if name == "log_prob" else []
        if len(args) > len(names):
            raise PythonError("TypeError", f"{self.label}.{name}() takes from 1 to {len(names) + 1} positional "
                                           f"arguments but {len(args) + 1} were given")
        bound = bind_by_name(name, names, args, kwargs)
        if name in ("sample", "rsample"):
            return getattr(self, name)(bound.get("sample_shape", ()))
        if name == "log_prob":
            if "value" not in bound:
                raise PythonError("TypeError", f"{self.label}.log_prob() missing 1 required positional argument: 'value'")
            return self.log_prob(bound["value"])
        return self.entropy()

    def read(self, name: str) -> Any:
        return self.params[name]

    def sample(self, sample_shape: Any) -> Any:
        raise NotImplementedError

    def rsample(self, sample_shape: Any) -> Any:
        raise self.interpreter.refuse(self.node, f"{self.label}.rsample is not supported (PyTorch has none either)")

    def log_prob(self, value: Any) -> Any:
        raise NotImplementedError

    def entropy(self) -> Any:
        raise NotImplementedError


_CONSTRAINTS = {"real": "Real()", "positive": "GreaterThan(lower_bound=0.0)", "unit_interval": "Interval(lower_bound=0.0, "
                "upper_bound=1.0)", "boolean": "Boolean()", "simplex": "Simplex()", "real_vector": "IndependentConstraint("
                "Real(), 1)"}


def _holds(constraint: str, value: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        if constraint == "real":
            return value == value
        if constraint == "positive":
            return value > 0
        if constraint == "unit_interval":
            return (value >= 0) & (value <= 1)
        if constraint == "boolean":
            return (value == 0) | (value == 1)
        if constraint == "simplex":
            return np.all(value >= 0, axis=-1) & (np.abs(value.sum(axis=-1) - 1) < 1e-6)
        return np.all(value == value, axis=-1)  # real_vector


def _shape(sample_shape: Any) -> tuple[int, ...]:
    if isinstance(sample_shape, int) and not isinstance(sample_shape, bool):
        return (sample_shape,)
    if not isinstance(sample_shape, (tuple, list)) or not all(isinstance(s, int) for s in sample_shape):
        raise TorchError("TypeError", "torch.Size() takes an iterable of 'int'")
    return tuple(sample_shape)


def _tensors(interpreter: Interpreter, node: ast.AST, *values: Any) -> list[Tensor]:
    """PyTorch's broadcast_all: numbers made tensors (of the first tensor's dtype, else float32), then the
    shapes broadcast (a tensor of the whole shape is itself; another is expanded)."""
    if not all(isinstance(v, (Tensor, int, float)) and not isinstance(v, bool) for v in values):
        raise TorchError("ValueError", "Input arguments must all be instances of numbers.Number, torch.Tensor or "
                                       "objects implementing __torch_function__.")
    dtype = next((v.data.dtype for v in values if isinstance(v, Tensor)), FLOAT32)
    made = [v if isinstance(v, Tensor) else Tensor(interpreter.graph, np.asarray(v, dtype=dtype)) for v in values]
    shape = np.broadcast_shapes(*(t.data.shape for t in made))
    return [t if t.data.shape == shape else interpreter.call_op(".expand", [t, tuple(shape)], {}, node) for t in made]


class Normal(Distribution):
    label = "Normal"
    constraints: ClassVar[dict[str, str]] = {"loc": "real", "scale": "positive"}
    methods = ("sample", "rsample", "log_prob", "entropy")
    properties = ("loc", "scale", "mean", "stddev", "variance")

    def __init__(self, interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> None:
        super().__init__(interpreter, node)
        bound = bind_by_name("Normal.__init__", ["loc", "scale", "validate_args"], args, kwargs)
        if "loc" not in bound or "scale" not in bound:
            raise PythonError("TypeError", "Normal.__init__() missing required positional arguments: 'loc' and 'scale'")
        loc, scale = bound["loc"], bound["scale"]
        self.params["loc"], self.params["scale"] = _tensors(interpreter, node, loc, scale)
        numbers = not isinstance(loc, Tensor) and not isinstance(scale, Tensor)
        self.batch_shape = () if numbers else tuple(self.params["loc"].data.shape)
        self.checks = bound.get("validate_args") is not False
        if self.checks:
            self.validate()

    def read(self, name: str) -> Any:
        if name == "mean":
            return self.params["loc"]
        if name == "stddev":
            return self.params["scale"]
        if name == "variance":
            return self.op(".pow", self.params["scale"], 2)
        return self.params[name]

    def sample(self, sample_shape: Any) -> Any:
        shape = self.extended(sample_shape)
        interpreter = self.interpreter
        loc, scale = self.params["loc"].data, self.params["scale"].data
        self.interpreter.check_size(math.prod(shape), self.node)
        eps = interpreter.generator.normal_(np.empty(shape, dtype=loc.dtype))
        kind = loc.dtype.type
        values = (eps * np.broadcast_to(scale, shape)).astype(kind) + np.broadcast_to(loc, shape)
        return Tensor(interpreter.graph, values.astype(loc.dtype))

    def rsample(self, sample_shape: Any) -> Any:
        shape = self.extended(sample_shape)
        self.interpreter.check_size(math.prod(shape), self.node)
        eps = Tensor(self.interpreter.graph,
                     self.interpreter.generator.normal_(np.empty(shape, dtype=self.params["loc"].data.dtype)))
        return self.op("torch.add", self.params["loc"], self.op("torch.mul", eps, self.params["scale"]))

    def log_prob(self, value: Any) -> Any:
        if self.checks:
            self.validate_sample(value, "real")
        loc, scale = self.params["loc"], self.params["scale"]
        variance = self.op(".pow", scale, 2)
        log_scale = self.op("torch.log", scale)
        square = self.op(".pow", self.op("torch.sub", value, loc), 2)
        term = self.op("torch.div", self.op("torch.neg", square), self.op("torch.mul", variance, 2))
        return self.op("torch.sub", self.op("torch.sub", term, log_scale), math.log(math.sqrt(2 * math.pi)))

    def entropy(self) -> Any:
        return self.op("torch.add", 0.5 + 0.5 * math.log(2 * math.pi), self.op("torch.log", self.params["scale"]))


def _probs_or_logits(name: str, args: list[Any], kwargs: dict[str, Any]) -> tuple[dict[str, Any], str, Any]:
    """A distribution's arguments bound as (probs=None, logits=None, validate_args=None) bind them: the binding, which
    of probs and logits was given, and its value (PyTorch's ValueError where neither or both are)."""
    bound = bind_by_name(f"{name}.__init__", ["probs", "logits", "validate_args"], args, kwargs)
    probs, logits = bound.get("probs"), bound.get("logits")
    if (probs is None) == (logits is None):
        raise TorchError("ValueError", "Either `probs` or `logits` must be specified, but not both.")
    return (bound, "probs", probs) if probs is not None else (bound, "logits", logits)


class Bernoulli(Distribution):
    label = "Bernoulli"
    constraints: ClassVar[dict[str, str]] = {"probs": "unit_interval", "logits": "real"}
    methods = ("sample", "log_prob", "entropy")
    properties = ("probs", "logits", "mean", "variance")

    def __init__(self, interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> None:
        super().__init__(interpreter, node)
        bound, given, param = _probs_or_logits("Bernoulli", args, kwargs)
        (self.params[given],) = _tensors(interpreter, node, param)
        self.batch_shape = () if not isinstance(bound[given], Tensor) else tuple(self.params[given].data.shape)
        self.checks = bound.get("validate_args") is not False
        if self.checks:
            self.validate()

    def read(self, name: str) -> Any:
        if name == "probs" and "probs" not in self.params:
            self.params["probs"] = self.op("torch.sigmoid", self.params["logits"])
        if name == "logits" and "logits" not in self.params:
            clamped = _clamped(self, self.params["probs"])
            self.params["logits"] = self.op("torch.sub", self.op("torch.log", clamped),
                                            self.op("torch.log1p", self.op("torch.neg", clamped)))
        if name == "mean":
            return self.read("probs")
        if name == "variance":
            probs = self.read("probs")
            return self.op("torch.mul", probs, self.op("torch.sub", 1, probs))
        return self.params[name]

    def sample(self, sample_shape: Any) -> Any:
        shape = self.extended(sample_shape)
        self.interpreter.check_size(math.prod(shape), self.node)
        probs = np.broadcast_to(self.read("probs").data, shape)
        return Tensor(self.interpreter.graph, self.interpreter.generator.bernoulli(np.array(probs)))

    def log_prob(self, value: Any) -> Any:
        if self.checks:
            self.validate_sample(value, "boolean")
        logits, value = _tensors(self.interpreter, self.node, self.read("logits"), value)
        loss = self.op("torch.nn.functional.binary_cross_entropy_with_logits", logits, value, reduction="none")
        return self.op("torch.neg", loss)

    def entropy(self) -> Any:
        return self.op("torch.nn.functional.binary_cross_entropy_with_logits", self.read("logits"), self.read("probs"),
                       reduction="none")


def _clamped(distribution: Distribution, probs: Tensor) -> Any:
    eps = float(np.finfo(probs.data.dtype).eps)
    return distribution.op("torch.clamp", probs, min=eps, max=1 - eps)


class Categorical(Distribution):
    label = "Categorical"
    constraints: ClassVar[dict[str, str]] = {"probs": "simplex", "logits": "real_vector"}
    methods = ("sample", "log_prob", "entropy")
    properties = ("probs", "logits", "mean", "variance")

    def __init__(self, interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> None:
        super().__init__(interpreter, node)
        bound, given, param = _probs_or_logits("Categorical", args, kwargs)
        if not isinstance(param, Tensor):
            raise interpreter.refuse(node, f"Categorical({given}=...) of a {type(param).__name__} is not supported",
                                     "give a tensor")
        if param.data.ndim < 1:
            raise TorchError("ValueError", f"`{given}` parameter must be at least one-dimensional.")
        if given == "probs":
            self.params["probs"] = self.op("torch.div", param, self.op(".sum", param, -1, keepdim=True))
        else:
            self.params["logits"] = self.op("torch.sub", param, self.op(".logsumexp", param, dim=-1, keepdim=True))
        shape = tuple(param.data.shape)
        self.events = shape[-1]
        self.batch_shape = shape[:-1]
        self.checks = bound.get("validate_args") is not False
        if self.checks:
            self.validate()

    def read(self, name: str) -> Any:
        if name == "probs" and "probs" not in self.params:
            self.params["probs"] = self.op("torch.nn.functional.softmax", self.params["logits"], dim=-1)
        if name == "logits" and "logits" not in self.params:
            self.params["logits"] = self.op("torch.log", _clamped(self, self.params["probs"]))
        if name in ("mean", "variance"):
            probs = self.read("probs").data
            return Tensor(self.interpreter.graph, np.full(probs.shape[:-1], np.nan, dtype=probs.dtype))
        return self.params[name]

    def sample(self, sample_shape: Any) -> Any:
        shape = _shape(sample_shape)
        probs = self.read("probs").data.reshape(-1, self.events)
        count = math.prod(shape)
        self.interpreter.check_size(count * probs.shape[0], self.node)
        drawn = self.interpreter.generator.multinomial(probs, count, True).T
        return Tensor(self.interpreter.graph, np.ascontiguousarray(drawn).reshape(shape + self.batch_shape))

    def log_prob(self, value: Any) -> Any:
        if self.checks:
            self.validate_sample(value, "real")
            with np.errstate(all="ignore"):
                outside = (value.data % 1 != 0) | (value.data < 0) | (value.data > self.events - 1)
            if np.any(outside):
                raise TorchError("ValueError", f"Expected value argument (Tensor of shape {tuple(value.data.shape)}) to "
                                               f"be within the support (IntegerInterval(lower_bound=0, upper_bound="
                                               f"{self.events - 1})) of the distribution {self!r}, but found invalid "
                                               f"values:\n{_formatted(value)}")
        index = self.op(".unsqueeze", self.op(".long", value), -1)
        logits = self.read("logits")
        shape = np.broadcast_shapes(index.data.shape, logits.data.shape)
        index = index if index.data.shape == shape else self.op(".expand", index, tuple(shape))
        log_pmf = logits if logits.data.shape == shape else self.op(".expand", logits, tuple(shape))
        index = self.interpreter.index(index, (Ellipsis, slice(None, 1)), self.node)
        return self.op(".squeeze", self.op(".gather", log_pmf, -1, index), -1)

    def entropy(self) -> Any:
        logits = self.read("logits")
        least = float(np.finfo(logits.data.dtype).min)
        product = self.op("torch.mul", self.op("torch.clamp", logits, min=least), self.read("probs"))
        return self.op("torch.neg", self.op(".sum", product, -1))


class Multinomial(Distribution):
    label = "Multinomial"
    constraints: ClassVar[dict[str, str]] = {"probs": "simplex", "logits": "real_vector"}
    methods = ("sample", "log_prob")
    properties = ("probs", "logits", "total_count")

    def __init__(self, interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> None:
        super().__init__(interpreter, node)
        bound = {"total_count": 1, **bind_by_name("Multinomial.__init__", ["total_count", "probs", "logits",
                                                                            "validate_args"], args, kwargs)}
        count = bound["total_count"]
        if not isinstance(count, int) or isinstance(count, bool):
            raise TorchError("NotImplementedError", "inhomogeneous total_count is not supported")
        self.total_count = count
        given: dict[str, Any] = {k: bound[k] for k in ("probs", "logits", "validate_args") if k in bound}
        self.categorical = Categorical(interpreter, [], given, node)
        self.batch_shape = self.categorical.batch_shape
        self.event_shape = (self.categorical.events,)

    def read(self, name: str) -> Any:
        if name == "total_count":
            return self.total_count
        return self.categorical.read(name)

    def sample(self, sample_shape: Any) -> Any:
        shape = _shape(sample_shape)
        drawn = self.categorical.sample((self.total_count, *shape)).data  # (total_count, sample, batch)
        drawn = np.moveaxis(drawn, 0, -1)
        counts = np.zeros(self.extended(shape), dtype=INT64)
        flat_counts, flat_drawn = counts.reshape(-1, counts.shape[-1]), drawn.reshape(-1, drawn.shape[-1])
        for row in range(flat_counts.shape[0]):
            np.add.at(flat_counts[row], flat_drawn[row], 1)
        probs = self.categorical.read("probs").data
        return Tensor(self.interpreter.graph, counts.astype(probs.dtype))

    def log_prob(self, value: Any) -> Any:
        if self.categorical.checks:
            self.validate_sample(value, "real")
            data = value.data
            if not np.all(np.all(data >= 0, axis=-1) & (data.sum(axis=-1) <= self.total_count)):
                raise TorchError("ValueError", f"Expected value argument (Tensor of shape {tuple(data.shape)}) to be "
                                               f"within the support (Multinomial()) of the distribution {self!r}, but "
                                               f"found invalid values:\n{_formatted(value)}")
        logits, value = _tensors(self.interpreter, self.node, self.read("logits"), value)
        logits = self.op(".clone", logits)
        log_factorial_n = self.op("torch.lgamma", self.op("torch.add", self.op(".sum", value, -1), 1))
        log_factorial_xs = self.op(".sum", self.op("torch.lgamma", self.op("torch.add", value, 1)), -1)
        unreachable = (value.data == 0) & (logits.data == -np.inf)
        if unreachable.any():
            self.interpreter.set_item(logits, Tensor(self.interpreter.graph, unreachable), 0, self.node)
        log_powers = self.op(".sum", self.op("torch.mul", logits, value), -1)
        return self.op("torch.add", self.op("torch.sub", log_factorial_n, log_factorial_xs), log_powers)


def construct(interpreter: Interpreter, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Distribution:
    kind: type[Any] = {"Normal": Normal, "Bernoulli": Bernoulli, "Categorical": Categorical,
                       "Multinomial": Multinomial}[name]
    made: Distribution = kind(interpreter, args, kwargs, node)
    return made
