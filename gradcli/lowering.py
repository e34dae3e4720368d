"""Calls lowered to rows: the one place where a call, however it was written, meets the op table.

Every way in uses it: the formula language (tape.TapeSink), `gradcli run` (run.interpreter) and
the --at/--seed literals (inputs.literals). A front end holds its values its own way -- the sink
as tape nodes and list literals, `run` as tensors and Python objects, the literal reader as
syntax -- and says what each one is through a `Front`; this module does the rest, once:

- whose semantics: the spelling says (`max`, `torch.max`, `x.max`, `np.max`): a row's dialects
  (Op.dialects) name the row a family's spelling means: bare max(a, b) is Python's and
  mathematics' elementwise maximum, np.max(m, 0) NumPy's values alone, np.std NumPy's ddof=0;
- binding, as the library's argument parser binds: the row's tensors first, then its params by
  position (in one of the row's positional orders, Op.positional: PyTorch's overloads of one op,
  std(x, dim) and std(x, unbiased)) and by keyword; a bool is never a dim or a size, as in
  PyTorch's parser; optional tensor args (Op.optional_args); tensor args among the params
  (gather(x, dim, index)); the rest of the positional args as sizes (x.reshape(2, 3));
- overloads: the first row whose signature the call fits (max(v); max(x, 1); max(a, b));
- which row a bound call is at last: with a dim (Op.with_dim), with return_indices=True
  (Op.with_indices), by a param's value (Op.rebinds: svd's compute_uv=False), with a target of the input's shape
  (Op.float_index), or no row at all: the input itself
  (Op.identity_when, a copy to the dtype it has); the dtype a call asks of its result (Bound.cast).

What is wrong with a call is a CallProblem, which the front end says in its own voice at the
argument it names. Index keys (`index`, whose front also says what each item of a key is:
key_part) and properties (.T, .mT: PROPERTIES) are lowered here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from gradcli.ops import FAMILY_FUNCTIONS, FUNCTIONS, METHODS, OPS, Op
from gradcli.ops.core import Dialect, Param, ValueRefusal

if TYPE_CHECKING:
    from gradcli.torch_parser import Given

# A module prefix -> the family whose semantics its calls have.
FAMILIES = {"torch": "torch", "torch.nn.functional": "nn", "F": "nn", "torch.special": "torch",
            "torch.linalg": "linalg", "np": "numpy", "numpy": "numpy", "np.linalg": "numpy", "numpy.linalg": "numpy",
            "math": "math", "torch.masked": "masked", "torch.fft": "fft"}
BARE, METHOD = "", "method"

# The kinds of values a front end reports (Front.kind).
TENSOR, INT, FLOAT, BOOL, NONE, STR, LIST, TUPLE = "tensor", "int", "float", "bool", "none", "str", "list", "tuple"
NUMBERS = frozenset({INT, FLOAT, BOOL})  # Python numbers: a tensor arg takes them
_WHOLE_KINDS = frozenset({"int", "dims", "ints", "sizes", "axes"})  # params a bool never binds (PyTorch's parser)


class CallProblem(Exception):
    """What is wrong with a call: at `value` (one of the call's args) or at `keyword`, else the whole call."""

    def __init__(self, message: str, value: Any = None, keyword: str | None = None, hint: str = "",
                 syntax: bool = False, raised: str = "") -> None:
        super().__init__(message)
        self.message, self.value, self.keyword, self.hint = message, value, keyword, hint
        self.syntax = syntax  # not a value at all (None, a string, a tuple where a tensor goes)
        # what PyTorch itself raises for this call ("TypeError"): `run` raises it as PyTorch does
        self.raised = raised
        # gradcli's own words for a call PyTorch refuses with its parser's TypeError, at the arg they name: what the
        # formula language says (PyTorch's listing of its signatures is for `run`)
        self.own: CallProblem | None = None


class Front(Protocol):
    """How a front end holds values: what the lowering asks of them. A front end that knows a boolean mask's values
    when it indexes (`run`) also has `mask_values(mask) -> ndarray` (index: a mask among other items)."""

    def kind(self, value: Any) -> str:
        """TENSOR, INT, FLOAT, BOOL (Python's numbers, each its own), NONE, STR, LIST, TUPLE, or anything else."""

    def static(self, value: Any) -> Any:
        """What the program wrote for a static param: a number, a tuple of them, a string or None
        (CallProblem where it is computed from inputs)."""

    def items(self, value: Any) -> list[Any]:
        """The items of a LIST or TUPLE."""

    def tensor(self, value: Any) -> Any:
        """A tensor arg as the front end holds tensors (a number or a list made one)."""

    def stand_in(self, number: float) -> Any:
        """The value of an optional tensor arg that was left out (cross_entropy's weight: 1)."""

    def floating(self, value: Any) -> bool:
        """Is this tensor arg a float (not an integer tensor, nor an input, which may be either)?"""

    def dtype(self, value: Any) -> str:
        """A tensor arg's dtype, by NumPy's name: "float64", "float32", "int64", "bool"."""

    def arg_shapes(self, values: list[Any], row: str) -> list[tuple[int, ...]] | None:
        """The shapes of a call's tensor args where they are known while it is lowered (None where not:
        the formula language's inputs before their point), `row` the call's row."""


class Bound(NamedTuple):
    """A call lowered: the row, its tensor args (the front end's values) and its params.
    `identity`: no row at all, the call is its first arg itself (dropout with p=0)."""

    op: Op
    tensors: list[Any]
    params: dict[str, Any]
    identity: bool = False
    cast: str | None = None  # the result's dtype, where the call says it (sum(x, dtype=torch.float64))
    # PyTorch's UserWarning for this call, which the front end says in its voice (size_average=: its deprecation)
    warning: str | None = None
    warning_at_call: bool = False  # (said once per line of the call, not once per function: Param.warned)


def spelling(text: str) -> tuple[str, str]:
    """A call's spelling -> (family, name): `torch.max` -> ("torch", "max"), `.max` -> (METHOD, "max")."""
    if text.startswith("."):
        return METHOD, text[1:]
    module, _, name = text.rpartition(".")
    if not module:
        return BARE, text
    return FAMILIES.get(module, module), name


def find(text: str) -> Op | None:
    """The row a spelling names before its args are seen (None: no such function or method)."""
    family, name = spelling(text)
    if family == METHOD:
        return METHODS.get(name) or OPS.get(name)  # (a method only: x.repeat(2), whose row has no function)
    if family in ("masked", "fft"):  # torch.masked.sum is a row of its own, not torch.sum (gradcli.ops.masked)
        return OPS.get(f"{family}.{name}")
    op = FUNCTIONS.get(name) or FAMILY_FUNCTIONS.get((family, name))
    if family == "math" and op is not None and not op.elementwise:  # math has no max, no sum: math.exp, math.atan2
        return None
    return op


def lower(text: str, args: Sequence[Any], keywords: Sequence[tuple[str, Any]], front: Front) -> Bound:
    """The call `text(*args, **keywords)` as one row, its tensors and its params (CallProblem where it fits none)."""
    family, name = spelling(text)
    op = find(text)
    if op is None:
        raise CallProblem(f"unknown function '{name}'")
    said = dict(dict(op.method_params).get(name, ())) if family == METHOD else {}  # x.double(): dtype=float64
    given = (args, keywords)  # (as written: what PyTorch's refusal is of)
    if family in ("torch", "linalg", "fft"):  # torch.sin(x, out=None): PyTorch's functions' out= of None is no out
        keywords = [(key, value) for key, value in keywords if key != "out" or front.kind(value) != NONE]
    if family == "nn" and not any(spec.name == "inplace" for spec in op.params):  # F.relu(x, False): the activations'
        # inplace, which no row takes (dropout's does: its input itself); writing into the input is `run`'s to do
        written = dict(keywords)
        args, keywords, _ = take_out(name, "_stacklevel", args, keywords)  # (F.softmax's: where a warning points)
        args, keywords, inplace = take_out(name, "inplace", args, keywords)
        if inplace is not None and front.static(inplace):
            by_keyword = written.get("inplace") is inplace
            raise CallProblem(f"{name}(..., inplace=True) writes into its input: that is not supported here",
                              value=None if by_keyword else inplace, keyword="inplace" if by_keyword else None,
                              hint=f"write {name}(x) (the same values and gradient), or use `gradcli run`")
    candidates, dialect = _candidates(op, family, len(args), keywords, name)
    first: CallProblem | None = None
    for candidate in candidates:
        try:
            shared = candidate is candidates[0] or (dialect is not None and dialect.whole)  # (one Python signature)
            tensors, params = bind(candidate, name, args, keywords, front, dialect if shared else _own_dialect(
                candidate, family), family=family)
        except CallProblem as problem:  # (the first, but one PyTorch raises first of all: div's rounding_mode='round')
            first = problem if first is None or (problem.raised and not first.raised) else first
            continue
        if family in _TORCH_PARSED and any(front.kind(t) in NUMBERS for t in tensors):
            _numbers_for_tensors(text, family, name, given, front)
        if family in _TORCH_PARSED and _mixed_dims(candidate, given, front):
            try:
                _numbers_for_tensors(text, family, name, given, front)
            except CallProblem as mixed:  # (the formula language's words: PyTorch's listing is for `run`)
                dims = " and ".join(spec.name for spec in candidate.params if spec.kind == "dims")
                mixed.own = CallProblem(f"{name} takes {dims} both ints or both lists of ints")
                raise
        return settle(candidate, name, [front.tensor(t) for t in tensors], {**params, **said}, front)
    assert first is not None
    if family in _TORCH_PARSED and first.raised in ("", "TypeError"):  # (what PyTorch's parser refuses: its words)
        from gradcli import torch_parser  # (only where a call fails: the path of every call need not compile it)

        module = "Tensor" if family == METHOD else "torch.nn.functional" if family == "nn" else text.rpartition(".")[0]
        words = torch_parser.refusal(f"{module}.{name}", *given, lambda value: python_type(front, value))
        if words is not None:
            refused = CallProblem(words, raised="TypeError")
            refused.own = first
            raise refused
    raise first


def _mixed_dims(op: Op, given: tuple[Sequence[Any], Sequence[tuple[str, Any]]], front: Front) -> bool:
    """Does a call of a row of two dim params give one an int and another a list (torch.movedim(x, (0,), 1)), which
    PyTorch's parser takes only where each overload's list has a size (roll's int[1] shifts, int[1] dims)?"""
    if sum(1 for spec in op.params if spec.kind == "dims") < 2:
        return False
    kinds = {front.kind(value) for value in (*given[0], *(value for _, value in given[1]))}
    return INT in kinds and bool(kinds & {TUPLE, LIST})


def _numbers_for_tensors(text: str, family: str, name: str, given: tuple[Sequence[Any], Sequence[tuple[str, Any]]],
                         front: Front) -> None:
    """A call bound with a Python number for a tensor (torch.atan2(x, 1.0)): PyTorch's parser takes one for a Tensor
    param of a few functions alone (add, mul ...) or where an overload takes a Number (torch.pow(x, 2)); where it
    surely refuses the call, its TypeError (torch.maximum(x, 0), torch.trapezoid(y, 0), torch.movedim(x, (0,), 1))."""
    from gradcli import torch_parser

    module = "Tensor" if family == METHOD else "torch.nn.functional" if family == "nn" else text.rpartition(".")[0]
    words = torch_parser.refusal(f"{module}.{name}", *given, lambda value: python_type(front, value))
    if words is not None:
        raise CallProblem(words, raised="TypeError")


# Python's names of the types of a front end's kinds of values (Py_TYPE(obj)->tp_name)
_PYTHON_TYPES = {TENSOR: "Tensor", INT: "int", FLOAT: "float", BOOL: "bool", NONE: "NoneType", STR: "str",
                 LIST: "list", TUPLE: "tuple"}


def python_type(front: Front, value: Any) -> Given | None:
    """What PyTorch's parser sees of a value (torch_parser.Given); None where that is not known. A front end that
    knows more says so: its dtypes' type (type_name: "torch.dtype"), whether a tensor passes for a number (scalar)."""
    from gradcli.torch_parser import Given

    named = getattr(front, "type_name", None)
    name = named(value) if named is not None else None
    kind = front.kind(value)
    name = name or _PYTHON_TYPES.get(kind)
    if name is None:
        return None
    if kind == TENSOR:
        scalar = getattr(front, "scalar", None)
        return Given(name, None, scalar(value) if scalar is not None else None)
    if kind not in (LIST, TUPLE):
        return Given(name)
    items = [python_type(front, item) for item in front.items(value)]
    if any(item is None or item.items is not None for item in items):
        return None
    return Given(name, [item.type for item in items])  # type: ignore[union-attr]


def take_out(name: str, param: str, args: Sequence[Any], keywords: Sequence[tuple[str, Any]]
             ) -> tuple[list[Any], list[tuple[str, Any]], Any]:
    """A torch.nn.functional call's arg that no row takes, by position or keyword, taken out of its args where its
    Python signature has it (F.relu(x, True): `inplace`; F.softmin(x, 0, 3): `_stacklevel`): (the args, the
    keywords, its value or None)."""
    from gradcli.torch_signatures import SIGNATURES

    entry = SIGNATURES.get(f"torch.nn.functional.{name}")
    args, keywords = list(args), list(keywords)
    params = entry[2] if entry is not None and entry[0] == "python" else ()
    names = [name for name, _, _ in params]
    if (param not in names or len(args) > len(names) or any(kind != "POSITIONAL_OR_KEYWORD" for _, kind, _ in params)
            or any(key not in names for key, _ in keywords)):
        return args, keywords, None  # (a call its signature does not bind: PyTorch's refusal says so)
    place = names.index(param)
    if len(args) > place:
        return [*args[:place], *args[place + 1:]], keywords, args[place]
    given = [value for key, value in keywords if key == param]
    return args, [(k, v) for k, v in keywords if k != param], given[0] if given else None


def _own_dialect(overload: Op, family: str) -> Dialect | None:
    """An overload's own dialect of the family (add(a, b, alpha=2): alpha by keyword alone), where it has one."""
    return next((dialect for dialect in overload.dialects if dialect.family == family and dialect.positional is None
                 and not dialect.row and not dialect.names), None)


def _candidates(op: Op, family: str, positional: int, keywords: Sequence[tuple[str, Any]], name: str = ""
                ) -> tuple[list[Op], Dialect | None]:
    for dialect in op.dialects:
        if dialect.names and name not in dialect.names:  # torch.linalg.vector_norm: not linalg.norm's dialect
            continue
        if dialect.family == family and dialect.positional in (None, positional):
            if dialect.positional is not None and dialect.row and not _takes(OPS[dialect.row], keywords):
                continue  # max(x, 0, keepdim=True): no elementwise maximum takes keepdim, the dim form does
            row = OPS[dialect.row] if dialect.row else op
            if dialect.positional is not None:  # max(a, b): this row and no other
                return [row], dialect
            return [row, *(OPS[name] for name in op.overloads if OPS[name] is not row)], dialect
    return [op, *(OPS[name] for name in op.overloads)], None


def _takes(op: Op, keywords: Sequence[tuple[str, Any]]) -> bool:
    names = {name for spec in op.params for name in (spec.name, *spec.aliases)}
    return all(key in names for key, _ in keywords)


def dim_form(op: Op) -> Op | None:
    """The row of PyTorch's dim form (values, indices) of a call that a bare spelling made this
    elementwise row (max(x, 1) is maximum; its dim form max_dim), else None."""
    if not _DIM_FORMS:
        for row in OPS.values():
            for dialect in row.dialects:
                if dialect.family == BARE and dialect.row and row.with_dim:
                    _DIM_FORMS[dialect.row] = OPS[row.with_dim]
    return _DIM_FORMS.get(op.name)


_DIM_FORMS: dict[str, Op] = {}


def settle(op: Op, name: str, tensors: list[Any], params: dict[str, Any], front: Front) -> Bound:
    """The row a bound call is at last (Op.with_dim, Op.float_index, Op.identity_when), and the dtype
    the call asks of its result (a "dtype" param of a row whose rules do not take it: Bound.cast)."""
    cast = None
    if op.dtype != "param" and op.program is None:  # (a composite casts where PyTorch's does: F.softmin after its neg)
        for spec in op.params:
            if spec.kind == "dtype":
                cast = params.pop(spec.name, None)
    warning = None
    for spec in op.params:
        if spec.kind == "absent" or spec.unread:  # (None alone: _params; a value no rule reads)
            params.pop(spec.name, None)
    legacy = [params.pop(spec.name, None) for spec in op.params if spec.kind == "legacy"]
    if any(value is not None for value in legacy):  # F.mse_loss(a, b, False): size_average, which overrides reduction
        params["reduction"] = legacy_reduction(*legacy)
        warning = (f"size_average and reduce args will be deprecated, please use reduction='{params['reduction']}' "
                   "instead.")
    at_call = False
    for spec in op.params:  # reduction='elementwise_mean': 'mean', with its deprecation (Param.warned)
        for value, words, meant, per_line in spec.warned:
            if params.get(spec.name, spec.default) == value and not any(v is not None for v in legacy):
                params[spec.name], warning, at_call = meant, words, per_line
    if op.with_dim is not None and params.get("dim") is not None:  # torch.max(x, 0): (values, indices)
        op = OPS[op.with_dim]
    if op.with_indices is not None and params.get("return_indices"):  # max_pool2d(x, 2, return_indices=True)
        op = OPS[op.with_indices]
    for param, value, row in op.rebinds:  # torch.svd(a, compute_uv=False): U and V of zeros
        if param in params and params[param] is value:
            op = OPS[row]
    if op.identity_when is not None:  # dropout(x, 0.0): x itself, as PyTorch returns it
        try:
            keeps = op.identity_when(**params)
            what = "draws random numbers: gradcli has none"
        except ValueRefusal as refusal:  # (PyTorch's own: a p out of [0, 1], its ValueError)
            raise CallProblem(str(refusal), raised=refusal.kind) from None
        except ValueError as error:
            keeps, what = False, str(error)
        if not keeps and params.get("p") == 1 and not params.get("inplace"):  # (p=1 draws nothing: the input times a
            # 0-d zero, MulBackward0, as at::_dropout_impl makes it)
            return Bound(OPS["mul"], [tensors[0], front.stand_in(0.0)], {}, warning=warning, warning_at_call=at_call)
        if not keeps:
            raise CallProblem(f"{name}: {what}", hint="it is the input itself with p=0 or training=False")
        return Bound(op, tensors, params, identity=True, warning=warning, warning_at_call=at_call)
    if op.dtype == "param":  # x.to(dtype): x itself where it has that dtype, as PyTorch returns self
        if params.get("dtype") in (None, front.dtype(tensors[0])) and not params.get("copy"):
            return Bound(op, tensors, params, identity=True)
    if op.float_index and op.index_from is not None:  # cross_entropy(x, probabilities): read by the target's shape
        shapes = front.arg_shapes(tensors, op.name)
        if (shapes[0] == shapes[op.index_from]) if shapes is not None else front.floating(tensors[op.index_from]):
            op = OPS[op.float_index]  # (shapes not known yet: a float is probabilities, an input class indices)
    return Bound(op, tensors, params, cast=cast, warning=warning, warning_at_call=at_call)


def legacy_reduction(size_average: bool | None, reduce: bool | None) -> str:
    """A loss's reduction from its legacy size_average and reduce (torch.nn._reduction.legacy_get_string): None is
    True; reduce False is 'none', else size_average False 'sum', else 'mean'."""
    if reduce is not None and not reduce:
        return "none"
    return "sum" if size_average is not None and not size_average else "mean"


def bind(op: Op, name: str, args: Sequence[Any], keywords: Sequence[tuple[str, Any]], front: Front,
         dialect: Dialect | None = None, family: str = BARE) -> tuple[list[Any], dict[str, Any]]:
    """The tensor args and the params of a call of `op`, as the library's parser binds them:
    positional args first (the op's tensors, then its params in order), then keywords."""
    args, keywords = list(args), list(keywords)
    if op.arity == -1 and op.params and op.params[0].kind == "str" and op.params[0].default is None:
        # einsum('ij,jk->ik', a, b): the string first, then the tensors (or a list of them)
        if args and front.kind(args[0]) == STR:
            keywords, args = [(op.params[0].name, args[0]), *keywords], args[1:]
        elif not any(key == op.params[0].name for key, _ in keywords):
            raise CallProblem(f"{name} takes its {op.params[0].name} first, as a string: {name}('ij,jk->ik', a, b)")
    if op.list_keyword and not args and family in ("torch", "linalg") and any(k == op.list_keyword for k, _ in keywords):
        # torch.cat(tensors=[a, b], dim=1): the list by its keyword
        args = [value for key, value in keywords if key == op.list_keyword][:1]
        keywords = [(key, value) for key, value in keywords if key != op.list_keyword]
    if op.arity > 0 and len(args) < op.arity + len(op.tensor_positions):  # torch.gather(x, 1, index=i)
        args, keywords = _tensors_by_keyword(op, args, keywords)
    if op.keyword_tensors:  # torch.masked.sum(x, 0, mask=m): the mask among the tensors
        args, keywords = _keyword_tensors(op, name, args, keywords, front)
    positions = op.tensor_positions if dialect is None or dialect.tensor_positions is None else dialect.tensor_positions
    if op.optional_args:  # cross_entropy(x, t, weight=w), cross_entropy(x, t)
        # (each where the spelling's signature has it: torch.binary_cross_entropy_with_logits's pos_weight is its
        # 4th arg, F.'s its 7th)
        optional = tuple((positions[op.tensor_positions.index(place)], keyword, default)
                         for place, keyword, default in op.optional_args) if positions is not op.tensor_positions \
            else op.optional_args
        args, keywords = _optional(name, args, keywords, front, optional, positions, op.parser_name)
    if positions and len(args) > max(positions):  # gather(x, dim, index), x.where(cond, y)
        args = [*(args[p] for p in positions), *(a for p, a in enumerate(args) if p not in positions)]
    elif positions and 0 < op.arity and sum(p < len(args) for p in positions) < op.arity <= len(args) and any(
            front.kind(a) in (LIST, TUPLE) for p, a in enumerate(args) if p not in positions):
        # F.rms_norm(x, [3]): the list stands where the spelling has normalized_shape, not the weight (the overload
        # without it binds the call; gather(a, b, dim=0)'s b is a tensor, where the language puts the tensors first)
        raise CallProblem(f"{name} takes {op.arity} tensors at positions {', '.join(map(str, positions))}")
    arity = len(args) if op.arity == -1 else op.arity
    if op.arity == -1 and args and front.kind(args[0]) in (LIST, TUPLE):  # cat([a, b], dim=0)
        tensors, given = list(front.items(args[0])), args[1:]
    else:
        if len(args) < arity:
            if dialect is not None and dialect.whole and len(args) < _least(op):  # F.mse_loss(a): Python's words
                called = [arg for _, arg in sorted(zip(op.tensor_positions or range(op.arity), op.inputs))]  # (its order)
                missing = [f"'{arg}'" for arg in called[len(args):_least(op)]]
                listed = missing[0] if len(missing) == 1 else (
                    f"{missing[0]} and {missing[1]}" if len(missing) == 2 else f"{', '.join(missing[:-1])}, and {missing[-1]}")
                raise CallProblem(f"{name}() missing {len(missing)} required positional argument"
                                  f"{'s' if len(missing) > 1 else ''}: {listed}", raised="TypeError")
            raise CallProblem(f"{name} takes {arity} argument{'s' if arity != 1 else ''}, got {len(args)}")
        tensors, given = args[:arity], args[arity:]
    for tensor in tensors:
        kind = front.kind(tensor)
        if kind not in (TENSOR, LIST, *NUMBERS):
            message, hint = _NOT_VALUES.get(kind, ("this is not a value", ""))
            raise CallProblem(message, value=tensor, hint=hint, syntax=True)
    orders = [dialect.order] if dialect is not None and dialect.order is not None else (
        list(op.positional) or [tuple(spec.name for spec in op.params)])
    first: CallProblem | None = None
    for order in orders:
        try:
            params = _params(op, name, arity, len(args), order, given, keywords, front, dialect, family)
            if family in _TORCH_PARSED:
                _listed(op, name, arity, order, given, keywords, front, method=family == METHOD)
        except CallProblem as problem:
            first = first or problem
            continue
        return tensors, params
    assert first is not None
    raise first


_TORCH_PARSED = ("torch", "nn", "linalg", METHOD)  # the families whose calls PyTorch's parser binds
_BOOL_PARSED = ("torch", "linalg", METHOD)  # (F.* are Python functions: F.relu(x, 1) is inplace=1)


def _listed(op: Op, name: str, arity: int, order: tuple[str, ...], given: Sequence[Any],
            keywords: Sequence[tuple[str, Any]], front: Front, method: bool) -> None:
    """PyTorch's parser refuses an int for an int[] param without a size (Param.listed), but where a
    method's positional args are the list, its one positional param (x.flip(0), x.reshape(6); not x.rot90(1, 1))."""
    varargs = method and len(order) == 1
    written = [(order[i], value, arity + i + 1 - method) for i, value in enumerate(given)
               if i < len(order) and value is not _LEFT_OUT and not varargs]
    written += [(key, value, 0) for key, value in keywords]
    for spec in op.params:
        if not spec.listed:
            continue
        for key, value, position in written:
            if key in (spec.name, *spec.aliases) and front.kind(value) == INT:
                where = f" (position {position})" if position else ""
                raise CallProblem(f"{name}(): argument '{spec.name}'{where} must be tuple of ints, not int",
                                  value=value, raised="TypeError")


_NOT_VALUES = {
    NONE: ("None is not a value", "it can only be an argument of a call that takes it, as in sum(x, dim=None), "
                                  "einsum('ij->ji', m), or an index (a new axis: v[None])"),
    STR: ("a string is not a value", "it can only be an argument of a call that takes it, as in "
                                     "einsum('ij->ji', m)"),
    TUPLE: ("a tuple is not a value", "index it (t[0]) or unpack it (a, b = t); a tuple can be the program's output"),
    "parts": ("a tuple is not a value", "index it (t[0]) or unpack it (a, b = t); a tuple can be the program's output"),
    "...": ("'...' is not a value", "it can only be an index, as in m[..., 0]"),
}


def _params(op: Op, name: str, arity: int, count: int, order: tuple[str, ...], given: Sequence[Any],
            keywords: Sequence[tuple[str, Any]], front: Front, dialect: Dialect | None, family: str = BARE
            ) -> dict[str, Any]:
    specs = {spec.name: spec for spec in op.params}
    written: dict[str, Any] = {}
    soaks = bool(order) and (specs[order[-1]].kind == "ints" or (  # x.reshape(2, 3): the rest are the sizes
        family == METHOD and len(order) == 1 and specs[order[0]].listed))  # x.flip(0, 1): a method's one int list
    parsed = family in _BOOL_PARSED  # PyTorch's parser binds it: a bool param takes a bool alone
    self_given = 1 if family == METHOD else 0  # (a method's messages count its args without self)
    whole = dialect is not None and dialect.whole  # (F.mse_loss: a Python function's signature, Python's TypeErrors)
    if len(given) > len(order) and not soaks:
        taken = arity + len(order)
        if whole:
            takes = f"from {_least(op)} to {taken}" if _least(op) != taken else str(taken)
            raise CallProblem(f"{name}() takes {takes} positional argument{'s' if taken != 1 else ''} but {count} "
                              f"{'was' if count == 1 else 'were'} given", raised="TypeError")
        if parsed and dialect is not None and dialect.order is not None:  # PyTorch's own positional params
            taken, count = taken - self_given, count - self_given
            raise CallProblem(f"{name}() takes {taken} positional argument{'s' if taken != 1 else ''} but {count} "
                              f"{'was' if count == 1 else 'were'} given", raised="TypeError")
        raise CallProblem(f"{name} takes {taken} argument{'s' if taken != 1 else ''}, got {count}")
    for i, value in enumerate(given):
        if value is _LEFT_OUT:
            continue
        if soaks and i == len(order) - 1 and len(given) > len(order):
            written[order[-1]] = ("sizes", list(given[i:]))
            break
        if parsed and specs[order[i]].kind == "bool" and front.kind(value) in (INT, FLOAT):  # torch.std(m, 1, 0)
            raise CallProblem(f"{name}(): argument '{order[i]}' (position {arity - self_given + i + 1}) must be bool, "
                              f"not {front.kind(value)}", value=value, raised="TypeError")
        written[order[i]] = value
    by_keyword = {key: spec for spec in op.params for key in (spec.name, *spec.aliases)}
    for key, value in keywords:
        spec = by_keyword.get(key)
        if dialect is not None and key in dialect.refuses:
            raise CallProblem(f"{name}() got an unexpected keyword argument '{key}'", keyword=key,
                              hint=f"the spelling's library has no {key}=: see the README's whose semantics")
        if parsed and spec is not None and spec.kind == "bool" and front.kind(value) in (INT, FLOAT):
            raise CallProblem(f"{name}(): argument '{spec.name}' must be bool, not {front.kind(value)}", keyword=key,
                              raised="TypeError")
        if spec is None or spec.name in written:
            known = ", ".join(f"{p.name}=" for p in op.params) or "none"
            twice = spec is not None or (whole and key in op.inputs)  # (F.mse_loss(a, b, input=a))
            what = f"got multiple values for argument '{key}'" if twice else f"got an unexpected keyword argument '{key}'"
            raise CallProblem(f"{name}() {what}", keyword=key, hint=f"{name} takes the keyword arguments: {known}",
                              raised="TypeError" if whole else "")
        written[spec.name] = value
    missing = [required for required in (dialect.required if dialect is not None else ()) if required not in written]
    if missing:  # torch.cumsum(x): PyTorch's parser says so (its "argument" and "arguments" as it has them)
        listed = ", ".join('"' + arg + '"' for arg in missing)
        raise CallProblem(f"{name}() missing {len(missing)} required positional argument{'s' if len(missing) == 1 else ''}"
                          f": {listed}", raised="TypeError",
                          hint=f"the spelling's library needs {missing[0]}=: see the README's whose semantics")
    params: dict[str, Any] = dict(dialect.defaults) if dialect is not None else {}
    # (a loss's size_average or reduce given overrides its reduction, read or not: lowering.settle)
    legacy = any(spec.kind == "legacy" and spec.name in written and front.kind(written[spec.name]) != NONE
                 for spec in op.params)
    for spec in op.params:
        if spec.name not in written or (legacy and spec.name == "reduction"):
            params.setdefault(spec.name, spec.default)
            continue
        value = written[spec.name]
        if spec.kind == "absent":
            _absent(name, spec, value, front)
            continue
        if type(value) is tuple and value and value[0] == "sizes":
            static: Any = tuple(_static(front, item, spec) for item in value[1])
        else:
            static = _static(front, value, spec)
        try:
            params[spec.name] = spec.convert(static)
        except ValueRefusal as problem:  # (PyTorch's own refusal of the value: reduction='avg')
            raise CallProblem(str(problem), value=None if type(value) is tuple else value, raised=problem.kind,
                              hint=problem.ours) from None
        except ValueError as problem:
            raise CallProblem(f"{name}: {problem}", value=None if type(value) is tuple else value) from None
    return params


def _least(op: Op) -> int:
    """How many tensor args a call of the row or of its overloads needs at least (its optional ones left out)."""
    return min(row.arity - len(row.optional_args) for row in (op, *(OPS[name] for name in op.overloads)))


def _absent(name: str, spec: Param, value: Any, front: Front) -> None:
    """A param of PyTorch's that gradcli does not take (mse_loss's weight): None alone, or False where that is its
    default (gather's sparse_grad); a tensor is not supported, a value that is none PyTorch's own error
    (Param.refused: binary_cross_entropy's weight 'sum')."""
    kind = front.kind(value)
    if kind == NONE or (kind == BOOL and spec.default is False and front.static(value) is False):
        return
    if spec.refused is not None and kind in (STR, INT, FLOAT, BOOL, TUPLE) and not (kind == BOOL and spec.default is False):
        raised, words = spec.refused
        raise CallProblem(words.format(type=kind), value=value, raised=raised)
    raise CallProblem(f"{spec.name}= is not supported" + (f" ({spec.why})" if spec.why else ""), value=value,
                      hint=f"gradcli's {name} takes no {spec.name}; leave it out or give {spec.default}")


def _static(front: Front, value: Any, spec: Any) -> Any:
    kind = front.kind(value)
    if kind == BOOL and spec.kind in _WHOLE_KINDS:
        if spec.refused is not None:  # (PyTorch's TypeError: cross_entropy's ignore_index=True)
            raise CallProblem(str(spec.refusal(True)), value=value, raised=spec.refused[0])
        raise CallProblem(f"{spec.name} must be a whole number, not True or False", value=value)
    if kind == TENSOR:
        try:
            return front.static(value)
        except CallProblem as problem:
            problem.value = value
            raise
    return front.static(value)


def _tensors_by_keyword(op: Op, args: list[Any], keywords: list[tuple[str, Any]]
                        ) -> tuple[list[Any], list[tuple[str, Any]]]:
    """Tensor args given by keyword (torch.sin(input=x), torch.gather(x, 1, index=i)) put in their
    places among the positional args, where those reach them."""
    names = op.inputs or ("input", "other")[: max(op.arity, 0)]
    by_name = dict(keywords)
    if "self" in by_name and "input" not in by_name:  # (Tensor methods call their receiver self)
        by_name["input"] = by_name.pop("self")
        keywords = [("input" if k == "self" else k, v) for k, v in keywords]
    places = op.tensor_positions or tuple(range(len(names)))
    taken = set()
    for name, place in sorted(zip(names, places, strict=False), key=lambda pair: pair[1]):
        if name in by_name and name not in taken and len(args) == place:
            args = [*args, by_name[name]]
            taken.add(name)
    optional = {keyword for _, keyword, _ in op.optional_args}  # (placed by _optional)
    if len(args) < max(op.arity, 0):  # torch.gather(x, dim=1, index=i): the params by keyword too
        for name in names[len(args):]:
            if name not in by_name or name in taken or name in optional:
                break  # (a later one is not bound in the place of one left out: clamp(x, max=t))
            args = [*args, by_name[name]]
            taken.add(name)
    return args, [(k, v) for k, v in keywords if k not in taken]


def _keyword_tensors(op: Op, name: str, args: list[Any], keywords: list[tuple[str, Any]], front: Front
                     ) -> tuple[list[Any], list[tuple[str, Any]]]:
    """The call's args with its keyword-only tensors (Op.keyword_tensors) after its other tensors."""
    before = op.arity - len(op.keyword_tensors)
    if len(args) < before:
        raise CallProblem(f"{name} takes {before} argument{'s' if before != 1 else ''}, got {len(args)}")
    given = dict(keywords)
    missing = [key for key in op.keyword_tensors if key not in given or front.kind(given[key]) == NONE]
    if missing:
        raise CallProblem(f"{name}() missing the keyword argument '{missing[0]}'", keyword=missing[0])
    tensors = [given[key] for key in op.keyword_tensors]
    return [*args[:before], *tensors, *args[before:]], [(k, v) for k, v in keywords if k not in op.keyword_tensors]


_LEFT_OUT = object()  # a positional param left out before an optional tensor arg (Op.optional_args)


def _optional(name: str, args: list[Any], keywords: list[tuple[str, Any]], front: Front,
              optional: tuple[tuple[int, str, float], ...], positions: tuple[int, ...], parser_name: str | None = None
              ) -> tuple[list[Any], list[tuple[str, Any]]]:
    """The call's args with its optional tensor args in place (Op.optional_args, at their places among the
    positional args: `positions`, the tensors'): given by keyword, or the number that stands for a left-out one
    (None too). A number or a string given for one, or a list where the front end's lists are Python's (run's; the
    formula language's are constant tensors): PyTorch's parser's TypeError (Op.parser_name)."""
    for place, keyword, default in optional:
        given = [value for key, value in keywords if key == keyword]
        if len(args) < place and positions and not set(range(len(args), place)) & set(positions):
            args.extend([_LEFT_OUT] * (place - len(args)))  # diff(x, 2, append=t): dim left out before it
        if given and len(args) > place:
            raise CallProblem(f"{name}() got multiple values for argument '{keyword}'", keyword=keyword)
        if given and len(args) == place:
            args.append(given[0])
            keywords = [(k, v) for k, v in keywords if k != keyword]
        elif len(args) == place:
            args.append(front.stand_in(default))
            continue
        if len(args) <= place:
            continue
        kind = front.kind(args[place])
        if parser_name is not None and (kind in (STR, *NUMBERS) or (kind == LIST and getattr(front, "python_lists", False))):
            raise CallProblem(f"{parser_name}(): argument '{keyword}' (position {place + 1}) must be Tensor, not "
                              f"{_PYTHON_TYPES[kind]}", value=args[place], raised="TypeError")
        if kind == NONE:
            args[place] = front.stand_in(default)
    return args, keywords


# --- indexing --------------------------------------------------------------------------------

STATIC, INDEX, MASK = "static", "index", "mask"  # what an index item is (Front.key_part)


# PyTorch's warning where a list index is read as a tuple of indices (treatSequenceAsTuple)
SEQUENCE_AS_TUPLE = ("Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in "
                     "pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as "
                     "tensor index, x[torch.tensor(seq)], which will result either in an error or a different result "
                     "(Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/python_variable_indexing.cpp"
                     ":349.)")


def sequence_as_tuple(items: Sequence[Any], front: Any) -> tuple[Sequence[Any], bool]:
    """`x[[[1, 0]]]`: a list index of fewer than 32 items of which one is a list, a tuple, a tensor, a slice, None
    or ..., read as the tuple of its items (x[[1, 0]]), as PyTorch 2.13 reads it (with its deprecation warning:
    True); any other key as it is."""
    if len(items) != 1 or front.kind(items[0]) != LIST:
        return items, False
    inner = front.items(items[0])
    if len(inner) < 32 and any(front.kind(item) in (LIST, TUPLE, TENSOR, NONE, "slice", "...") or item is Ellipsis
                               or isinstance(item, slice) for item in inner):
        return tuple(inner), True
    return items, False


def index(base: Any, items: Sequence[Any], front: Any) -> Bound:
    """`base[items]` as one row: getitem (ints, slices, None, ...: SelectBackward0, SliceBackward0...),
    index (an index array or tensor among them: IndexBackward0, the tensors its index args) or
    mask_index (one boolean mask: x[x > 0]). Each item is what `front.key_part(item)` says it is:
    (STATIC, an int, a slice of ints, None, Ellipsis or nested tuples of ints), (INDEX, a tensor) or
    (MASK, a tensor)."""
    from gradcli.ops.indexing import INDEX_ARG

    key: list[Any] = []
    indices: list[Any] = []
    parts = [(item, *front.key_part(item)) for item in items]
    if len(parts) > 1 and any(what == MASK for _, what, _ in parts):
        parts = _masks_as_indices(base, parts, front)
    for item, what, part in parts:
        if what == MASK:
            if len(items) != 1:  # (a front end that knows its values has made it indices: _masks_as_indices)
                raise CallProblem("a boolean mask must be the only index, as in x[x > 0]", value=item)
            return Bound(OPS["mask_index"], [front.tensor(base), part], {})
        if what == INDEX:
            key.append(INDEX_ARG)
            indices.append(part)
            continue
        if part is Ellipsis and any(k is Ellipsis for k in key):
            raise CallProblem("an index can only have a single ellipsis ('...')", value=item)
        key.append(part)
    if indices or any(isinstance(k, (tuple, bool)) for k in key):  # v[[0, 2]], v[idx], v[True, 0]: IndexBackward0
        return Bound(OPS["index"], [front.tensor(base), *indices], {"key": tuple(key)})
    return Bound(OPS["getitem"], [front.tensor(base)], {"key": tuple(key)})


def _masks_as_indices(base: Any, parts: list[tuple[Any, str, Any]], front: Any) -> list[tuple[Any, str, Any]]:
    """`x[m, [1]]`, `x[:, m]`: a boolean mask among other index items is the index arrays of its True elements, one
    per dim it covers (m.nonzero()), as PyTorch reads it; its shape must match the dims it covers of the tensor as
    the other items leave it (ints select, None adds an axis), PyTorch's IndexError. Only where the front end knows
    the mask's values (`run`; the formula language's masks are made from inputs: said not supported)."""
    values = getattr(front, "mask_values", None)
    if values is None:
        return parts
    masks: dict[int, Any] = {id(part): values(part) for _, what, part in parts if what == MASK}
    # (a 0-d one is a bool of the key: a new axis, indexed with [0] or [], as PyTorch's applySlicing reads it)
    parts = [(item, STATIC, bool(masks[id(part)])) if what == MASK and masks[id(part)].ndim == 0 else (item, what, part)
             for item, what, part in parts]
    if not any(what == MASK for _, what, _ in parts):
        return parts
    shape = list(front.arg_shapes([front.tensor(base)], "index")[0])
    covers = [masks[id(part)].ndim if what == MASK else 0 if part is None or isinstance(part, bool) else 1
              for _, what, part in parts]
    if sum(covers) - sum(part is Ellipsis for _, _, part in parts) > len(shape):
        return [lowered for item, what, part in parts  # (too many indices: the row says PyTorch's words)
                for lowered in ([(item, STATIC, axis) for axis in _nonzero(masks[id(part)])] if what == MASK
                                else [(item, what, part)])]
    left = len(shape) - sum(c for c, (_, _, part) in zip(covers, parts) if part is not Ellipsis)
    sliced: list[int] = []  # the tensor as the other items leave it, and where each item starts in it
    starts: list[int] = []
    dim = 0
    for cover, (_, what, part) in zip(covers, parts):
        starts.append(len(sliced))
        if part is Ellipsis:
            sliced += shape[dim:dim + left]
            dim += left
        elif part is None or isinstance(part, bool):
            sliced.append(1)
        elif what == STATIC and isinstance(part, int):
            dim += 1
        else:
            sliced += shape[dim:dim + cover]
            dim += cover
    sliced += shape[dim:]
    lowered: list[tuple[Any, str, Any]] = []
    for start, (item, what, part) in zip(starts, parts):
        if what != MASK:
            lowered.append((item, what, part))
            continue
        mask = masks[id(part)]
        for j, size in enumerate(mask.shape):
            if start + j >= len(sliced) or size != sliced[start + j]:
                raise CallProblem(f"The shape of the mask {list(mask.shape)} at index {j} does not match the shape of "
                                  f"the indexed tensor {sliced} at index {start + j}", value=item, raised="IndexError")
        lowered += [(item, STATIC, axis) for axis in _nonzero(mask)]
    return lowered


def _nonzero(mask: Any) -> list[tuple[int, ...]]:
    import numpy as np

    return [tuple(int(i) for i in axis) for axis in np.nonzero(mask)]


# --- properties ------------------------------------------------------------------------------

# The properties of a tensor that are ops, as PyTorch records them: `m.T` is permute with every
# axis reversed (PermuteBackward0), `m.mT` transpose(m, -2, -1). name -> (row, params).
PROPERTIES: dict[str, tuple[str, dict[str, Any]]] = {
    "T": ("permute", {"dims": None}),
    "mT": ("transpose", {"dim0": -2, "dim1": -1}),
    "H": ("H", {}),  # (a matrix's conjugate transpose; every value here is real)
    "mH": ("transpose", {"dim0": -2, "dim1": -1}),
}
