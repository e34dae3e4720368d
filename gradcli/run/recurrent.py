"""nn.RNN, nn.LSTM, nn.GRU and nn.RNNCell, nn.LSTMCell, nn.GRUCell under `gradcli run`, as PyTorch's
CPU build runs them (read in ATen's RNN.cpp; nothing here is its code).

- Parameters: weight_ih_l{k}, weight_hh_l{k}, bias_ih_l{k}, bias_hh_l{k} per layer (with `_reverse`
  for the second direction; the cells': weight_ih, weight_hh, bias_ih, bias_hh), each drawn in that
  order from uniform(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), as reset_parameters draws them.
- A cell is its small ops: linear(h, W_hh, b_hh) + linear(x, W_ih, b_ih), unsafe_chunk into the gates,
  sigmoid/tanh, products and sums, in ATen's order, so the graph is PyTorch's (AddmmBackward0,
  UnsafeSplitBackward0, SigmoidBackward0 ...).
- nn.RNN and nn.GRU run each layer as ATen's FullLayer on the CPU: the input's projection for every
  step at once (linear of the 3-D input), unbind(0) into steps, the cell per step, the hiddens
  stack(0)ed; two directions cat(-1)ed; h_n the layers' last hiddens stack(0)ed; batch_first a
  transpose(0, 1) in, transpose_(0, 1) out; an unbatched input unsqueeze(1)d in, squeeze(1)d out.
- nn.LSTM is oneDNN's fused layer there (ops/recurrent.py, MkldnnRnnLayerBackward0), h0/c0 per
  layer selected from the given ones; batch_first a transpose(0, 1) both ways.
- dropout between layers in training mode and proj_size are refused (exit 2).
"""

from __future__ import annotations

import ast
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from gradcli.ops import OPS
from gradcli.run.nn import Args, Kwargs, Module, _bind, linear, parameter
from gradcli.run.tensor import FLOAT32, Tensor, TorchError, apply, runtime_error

if TYPE_CHECKING:
    from gradcli.run.interpreter import Interpreter

_GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}


def _draw(interpreter: Interpreter, module: Module, names: list[tuple[str, tuple[int, ...]]], hidden: int,
          dtype: np.dtype) -> None:
    stdv = 1.0 / math.sqrt(hidden)
    for name, shape in names:  # (registered first, then drawn in that order: reset_parameters)
        module.set(interpreter, name, parameter(interpreter, Tensor(interpreter.graph, np.zeros(shape, dtype))))
    for name, _ in names:
        param = module.params[name]
        assert param is not None
        if param.data.size:
            interpreter.generator.uniform_(param.data, -stdv, stdv)


def _call(interpreter: Interpreter, spelled: str, args: list[Any], node: ast.AST, **kwargs: Any) -> Any:
    return interpreter.call_op(spelled, args, kwargs, node)


def _cell(interpreter: Interpreter, mode: str, x: Tensor, h: Any, weights: list[Any], node: ast.AST,
          projected: bool = False, nonlinearity: str = "tanh") -> Any:
    """One step of ATen's cell: `x` already projected by W_ih where `projected` (FullLayer's CPU path)."""
    w_ih, w_hh, b_ih, b_hh = weights
    if mode == "LSTM":
        hx, cx = h
        gates = _call(interpreter, "torch.add", [linear(interpreter, hx, w_hh, b_hh, node),
                                                 x if projected else linear(interpreter, x, w_ih, b_ih, node)], node)
        i, f, g, o = _call(interpreter, ".unsafe_chunk", [gates, 4, 1], node)
        i, f = _call(interpreter, "torch.sigmoid", [i], node), _call(interpreter, "torch.sigmoid", [f], node)
        g, o = _call(interpreter, "torch.tanh", [g], node), _call(interpreter, "torch.sigmoid", [o], node)
        cy = _call(interpreter, "torch.add", [_call(interpreter, "torch.mul", [f, cx], node),
                                              _call(interpreter, "torch.mul", [i, g], node)], node)
        hy = _call(interpreter, "torch.mul", [o, _call(interpreter, "torch.tanh", [cy], node)], node)
        return hy, cy
    if mode == "GRU":
        igates = _call(interpreter, ".unsafe_chunk", [x if projected else linear(interpreter, x, w_ih, b_ih, node), 3, 1],
                       node)
        hgates = _call(interpreter, ".unsafe_chunk", [linear(interpreter, h, w_hh, b_hh, node), 3, 1], node)
        reset = _call(interpreter, "torch.sigmoid", [_call(interpreter, "torch.add", [hgates[0], igates[0]], node)], node)
        update = _call(interpreter, "torch.sigmoid", [_call(interpreter, "torch.add", [hgates[1], igates[1]], node)], node)
        new = _call(interpreter, "torch.tanh", [_call(interpreter, "torch.add", [
            igates[2], _call(interpreter, "torch.mul", [hgates[2], reset], node)], node)], node)
        kept = _call(interpreter, "torch.mul", [_call(interpreter, "torch.sub", [h, new], node), update], node)
        return _call(interpreter, "torch.add", [kept, new], node)
    total = _call(interpreter, "torch.add", [linear(interpreter, h, w_hh, b_hh, node),
                                             x if projected else linear(interpreter, x, w_ih, b_ih, node)], node)
    return _call(interpreter, "torch.tanh" if nonlinearity == "tanh" else "torch.relu", [total], node)


def _zeros(interpreter: Interpreter, shape: tuple[int, ...], dtype: np.dtype) -> Tensor:
    return Tensor(interpreter.graph, np.zeros(shape, dtype))


def _where(interpreter: Interpreter) -> ast.AST:
    return interpreter.call_node or interpreter.node or ast.Pass()


class RNNBase(Module):
    mode = "RNN"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        label = self.label
        names = ["input_size", "hidden_size", "num_layers"]
        defaults: dict[str, Any] = {"num_layers": 1, "bias": True, "batch_first": False, "dropout": 0.0,
                                    "bidirectional": False, "device": None, "dtype": None}
        if self.mode == "RNN":
            names.append("nonlinearity")
            defaults["nonlinearity"] = "tanh"
        names += ["bias", "batch_first", "dropout", "bidirectional"]
        if self.mode == "LSTM":
            names.append("proj_size")
            defaults["proj_size"] = 0
        bound = _bind(f"{label}.__init__", [*names, "device", "dtype"], defaults, args, kwargs)
        self.input_size, self.hidden_size = int(bound["input_size"]), int(bound["hidden_size"])
        self.num_layers, self.bias = int(bound["num_layers"]), bool(bound["bias"])
        self.batch_first, self.dropout = bool(bound["batch_first"]), float(bound["dropout"])
        self.bidirectional = bool(bound["bidirectional"])
        self.nonlinearity = bound.get("nonlinearity", "tanh")
        if self.nonlinearity not in ("tanh", "relu"):
            raise TorchError("ValueError", f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        if bound.get("proj_size", 0):
            raise interpreter.refuse(_where(interpreter), "nn.LSTM with proj_size is not supported")
        if self.hidden_size <= 0:
            raise TorchError("ValueError", "hidden_size must be greater than zero")
        if self.num_layers <= 0:
            raise TorchError("ValueError", "num_layers must be greater than zero")
        dtype = bound["dtype"].numpy if bound["dtype"] is not None else FLOAT32
        gates = _GATES[self.mode] * self.hidden_size
        names_shapes: list[tuple[str, tuple[int, ...]]] = []
        for layer in range(self.num_layers):
            for direction in range(2 if self.bidirectional else 1):
                size = self.input_size if layer == 0 else self.hidden_size * (2 if self.bidirectional else 1)
                suffix = f"_l{layer}{'_reverse' if direction else ''}"
                names_shapes += [(f"weight_ih{suffix}", (gates, size)), (f"weight_hh{suffix}", (gates, self.hidden_size))]
                if self.bias:
                    names_shapes += [(f"bias_ih{suffix}", (gates,)), (f"bias_hh{suffix}", (gates,))]
        _draw(interpreter, self, names_shapes, self.hidden_size, dtype)

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if not self.bias:
            text += ", bias=False"
        if self.batch_first:
            text += ", batch_first=True"
        if self.dropout != 0:
            text += f", dropout={self.dropout}"
        if self.bidirectional:
            text += ", bidirectional=True"
        return text

    def weights(self, layer: int, direction: int) -> list[Any]:
        suffix = f"_l{layer}{'_reverse' if direction else ''}"
        return [self.params[f"weight_ih{suffix}"], self.params[f"weight_hh{suffix}"],
                self.params.get(f"bias_ih{suffix}"), self.params.get(f"bias_hh{suffix}")]

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        bound = _bind(f"{self.label}.forward", ["input", "hx"], {"hx": None}, args, kwargs)
        x, hx = bound["input"], bound["hx"]
        if not isinstance(x, Tensor):
            raise interpreter.refuse(node, f"nn.{self.label} of a packed sequence or a {type(x).__name__} is not supported")
        if self.dropout and self.training and self.num_layers > 1:
            raise interpreter.refuse(node, f"nn.{self.label}'s dropout between layers in training mode is not supported",
                                     "dropout=0, or model.eval()")
        if x.data.ndim not in (2, 3):
            raise TorchError("ValueError", f"{self.label}: Expected input to be 2D or 3D, got {x.data.ndim}D instead")
        if x.data.shape[-1] != self.input_size:
            raise TorchError("RuntimeError", f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                                             f"got {x.data.shape[-1]}")
        batched = x.data.ndim == 3
        directions = 2 if self.bidirectional else 1
        states = list(hx) if isinstance(hx, (tuple, list)) else [hx] if hx is not None else []
        if self.mode == "LSTM" and hx is not None and len(states) != 2:
            raise interpreter.refuse(node, "nn.LSTM's hx must be a tuple (h_0, c_0)")
        if not batched:
            x = _call(interpreter, ".unsqueeze", [x, 1], node)
            states = [_call(interpreter, ".unsqueeze", [s, 1], node) for s in states]
        if self.batch_first and batched:
            x = _call(interpreter, ".transpose", [x, 0, 1], node)
        batch = x.data.shape[1]
        expected = (self.num_layers * directions, batch, self.hidden_size)
        for state in states:
            if not isinstance(state, Tensor):
                raise interpreter.refuse(node, f"nn.{self.label}'s hx must be a tensor")
            if tuple(state.data.shape) != expected:
                raise TorchError("RuntimeError", f"Expected hidden size ({', '.join(map(str, expected))}), got "
                                                 f"[{', '.join(map(str, state.data.shape))}]")
        if not states:
            states = [_zeros(interpreter, expected, x.data.dtype) for _ in range(2 if self.mode == "LSTM" else 1)]
        if self.mode == "LSTM":
            output, finals = self.lstm_layers(interpreter, x, states, node)
        else:
            output, finals = self.full_layers(interpreter, x, states[0], node)
        if self.batch_first and batched:
            output = self.transposed_back(interpreter, output, node)
        results = [_call(interpreter, "torch.stack", [final, 0], node) for final in finals]
        if not batched:
            output = _call(interpreter, ".squeeze", [output, 1], node)
            results = [_call(interpreter, ".squeeze", [r, 1], node) for r in results]
        return output, (tuple(results) if self.mode == "LSTM" else results[0])

    def transposed_back(self, interpreter: Interpreter, output: Tensor, node: ast.AST) -> Any:
        if self.mode == "LSTM":  # (oneDNN's path: a transpose; ATen's FullLayer: transpose_ in place)
            return _call(interpreter, ".transpose", [output, 0, 1], node)
        return apply(interpreter.graph, OPS["transpose_in_place"], [output], {"dim0": 0, "dim1": 1},
                     interpreter.span(node))

    def full_layers(self, interpreter: Interpreter, x: Tensor, hx: Tensor, node: ast.AST) -> tuple[Any, list[list[Any]]]:
        layer_hx = _call(interpreter, ".unbind", [hx, 0], node)
        finals: list[Any] = []
        layer_input: Any = x
        directions = 2 if self.bidirectional else 1
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                w_ih, w_hh, b_ih, b_hh = self.weights(layer, direction)
                projected = linear(interpreter, layer_input, w_ih, b_ih, node)
                steps = list(_call(interpreter, ".unbind", [projected, 0], node))
                h = layer_hx[layer * directions + direction]
                hiddens: list[Any] = []
                for step in (reversed(steps) if direction else steps):
                    h = _cell(interpreter, self.mode, step, h, [w_ih, w_hh, b_ih, b_hh], node, projected=True,
                              nonlinearity=self.nonlinearity)
                    hiddens.append(h)
                if direction:
                    hiddens.reverse()
                outputs.append(_call(interpreter, "torch.stack", [hiddens, 0], node))
                finals.append(h)
            layer_input = outputs[0] if directions == 1 else _call(interpreter, "torch.cat", [outputs, -1], node)
        return layer_input, [finals]

    def lstm_layers(self, interpreter: Interpreter, x: Tensor, states: list[Tensor], node: ast.AST
                    ) -> tuple[Any, list[list[Any]]]:
        h_finals: list[Any] = []
        c_finals: list[Any] = []
        layer_input: Any = x
        directions = 2 if self.bidirectional else 1
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                index = layer * directions + direction
                h0, c0 = (_call(interpreter, ".select", [s, 0, index], node) for s in states)
                w_ih, w_hh, b_ih, b_hh = self.weights(layer, direction)
                if b_ih is None:
                    b_ih = b_hh = _zeros(interpreter, (4 * self.hidden_size,), x.data.dtype)
                out, hy, cy = interpreter.parts(OPS["mkldnn_rnn_layer"], [layer_input, w_ih, w_hh, b_ih, b_hh, h0, c0],
                                                {"reverse": bool(direction)}, node)
                outputs.append(out)
                h_finals.append(hy)
                c_finals.append(cy)
            layer_input = outputs[0] if directions == 1 else _call(interpreter, "torch.cat", [outputs, -1], node)
        return layer_input, [h_finals, c_finals]


class RNN(RNNBase):
    label = mode = "RNN"


class LSTM(RNNBase):
    label = mode = "LSTM"


class GRU(RNNBase):
    label = mode = "GRU"


class RNNCellBase(Module):
    mode = "RNN"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        names = ["input_size", "hidden_size", "bias"]
        defaults: dict[str, Any] = {"bias": True, "device": None, "dtype": None}
        if self.mode == "RNN":
            names.append("nonlinearity")
            defaults["nonlinearity"] = "tanh"
        bound = _bind(f"{self.label}.__init__", [*names, "device", "dtype"], defaults, args, kwargs)
        self.input_size, self.hidden_size, self.bias = int(bound["input_size"]), int(bound["hidden_size"]), bool(bound["bias"])
        self.nonlinearity = bound.get("nonlinearity", "tanh")
        dtype = bound["dtype"].numpy if bound["dtype"] is not None else FLOAT32
        gates = _GATES[self.mode] * self.hidden_size
        names_shapes: list[tuple[str, tuple[int, ...]]] = [("weight_ih", (gates, self.input_size)),
                                                           ("weight_hh", (gates, self.hidden_size))]
        if self.bias:
            names_shapes += [("bias_ih", (gates,)), ("bias_hh", (gates,))]
        _draw(interpreter, self, names_shapes, self.hidden_size, dtype)

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if not self.bias:
            text += ", bias=False"
        if self.nonlinearity != "tanh":
            text += f", nonlinearity={self.nonlinearity}"
        return text

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        bound = _bind(f"{self.label}.forward", ["input", "hx"], {"hx": None}, args, kwargs)
        x, hx = bound["input"], bound["hx"]
        if not isinstance(x, Tensor) or x.data.ndim not in (1, 2):
            raise TorchError("ValueError", f"{self.label}: Expected input to be 1D or 2D, got "
                                           f"{x.data.ndim if isinstance(x, Tensor) else 0}D instead")
        batched = x.data.ndim == 2
        states = list(hx) if isinstance(hx, (tuple, list)) else [hx] if hx is not None else []
        if not batched:
            x = _call(interpreter, ".unsqueeze", [x, 0], node)
            states = [_call(interpreter, ".unsqueeze", [s, 0], node) for s in states]
        if not states:
            shape = (x.data.shape[0], self.hidden_size)
            states = [_zeros(interpreter, shape, x.data.dtype) for _ in range(2 if self.mode == "LSTM" else 1)]
        weights = [self.params["weight_ih"], self.params["weight_hh"], self.params.get("bias_ih"),
                   self.params.get("bias_hh")]
        result = _cell(interpreter, self.mode, x, tuple(states) if self.mode == "LSTM" else states[0], weights, node,
                       nonlinearity=self.nonlinearity)
        if not batched:
            if self.mode == "LSTM":
                return tuple(_call(interpreter, ".squeeze", [r, 0], node) for r in result)
            return _call(interpreter, ".squeeze", [result, 0], node)
        return result


class RNNCell(RNNCellBase):
    mode = "RNN"
    label = "RNNCell"


class LSTMCell(RNNCellBase):
    mode = "LSTM"
    label = "LSTMCell"


class GRUCell(RNNCellBase):
    mode = "GRU"
    label = "GRUCell"


def pad_sequence(interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Tensor:
    """nn.utils.rnn.pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side='right') as ATen's:
    a tensor full of padding_value, each sequence copied into its place (CopySlices over CopySlices)."""
    bound = _bind("pad_sequence", ["sequences", "batch_first", "padding_value", "padding_side"],
                  {"batch_first": False, "padding_value": 0.0, "padding_side": "right"}, args, kwargs)
    sequences = bound["sequences"]
    if isinstance(sequences, Tensor):
        raise interpreter.refuse(node, "pad_sequence of a tensor (not a list of tensors) is not supported")
    if not isinstance(sequences, (list, tuple)) or not all(isinstance(s, Tensor) for s in sequences):
        raise TorchError("TypeError", "pad_sequence(): argument 'sequences' must be tuple of Tensors")
    if not sequences:
        raise runtime_error("received an empty list of sequences")
    side = bound["padding_side"]
    if side not in ("left", "right"):
        raise runtime_error(f"Expected padding_side to be one of left or right, but got {side}.")
    first = sequences[0].data
    if first.ndim == 0:
        raise runtime_error("pad_sequence: all sequences must have at least 1 dimension")
    longest = max(s.data.shape[0] for s in sequences)
    trailing = first.shape[1:]
    batch_first = bool(bound["batch_first"])
    shape = (len(sequences), longest, *trailing) if batch_first else (longest, len(sequences), *trailing)
    interpreter.check_items(int(np.prod(shape)), node)
    out = Tensor(interpreter.graph, np.full(shape, bound["padding_value"]).astype(first.dtype))
    for i, sequence in enumerate(sequences):
        length = sequence.data.shape[0]
        span = slice(0, length) if side == "right" else slice(longest - length, longest)
        interpreter.set_item(out, (i, span) if batch_first else (span, i), sequence, node)
    return out


MODULES: dict[str, type[Module]] = {"RNN": RNN, "LSTM": LSTM, "GRU": GRU, "RNNCell": RNNCell, "LSTMCell": LSTMCell,
                                    "GRUCell": GRUCell}
