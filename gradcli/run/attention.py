"""Attention under `gradcli run`: F.scaled_dot_product_attention, nn.MultiheadAttention, nn.TransformerEncoderLayer,
nn.TransformerEncoder, their decoder counterparts and nn.Transformer, as PyTorch 2.13's CPU build runs them
(read in torch/nn/functional.py, torch/nn/modules/{activation,transformer}.py and ATen's attention.cpp; nothing
here is their code).

- scaled_dot_product_attention of 4-D query, key and value of one batch and head count, without dropout, is ATen's
  fused CPU kernel: one node, ScaledDotProductFlashAttentionForCpuBackward0, over the three (its backward written
  once below: softmax(scale * q k^T + mask) v). The others take ATen's math path, as its ops: q and k^T times
  sqrt(scale), matmul, the mask added, _safe_softmax (a node of its own here), F.dropout's draws, matmul by v.
- nn.MultiheadAttention is F.multi_head_attention_forward's slow path, its ops recorded as PyTorch records them
  (the packed in-projection's unflatten/transpose/select, baddbmm or bmm, softmax, mean of the heads' weights);
  the fast path PyTorch takes in eval mode without grad (torch._native_multi_head_attention) computes the same
  numbers, and records nothing. Its in-projection is drawn as PyTorch's __init__ draws it: out_proj's Linear first
  (kaiming, then zeroed bias), then xavier_uniform_ of in_proj_weight.
- nn.TransformerEncoderLayer: self-attention (need_weights=False), the feed-forward block, two LayerNorms, in
  PyTorch's order for norm_first either way, its dropouts drawn in PyTorch's order in training mode.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from gradcli.run.custom import native_node
from gradcli.run.nn import Args, Kwargs, LayerNorm, Linear, Module, _bind, _deep_copy, parameter
from gradcli.run.python import PythonError
from gradcli.run.tensor import FLOAT32, Tensor, TorchError, runtime_error

if TYPE_CHECKING:
    from gradcli.run.interpreter import Interpreter


def _call(interpreter: Interpreter, spelled: str, args: list[Any], node: ast.AST, **kwargs: Any) -> Any:
    return interpreter.call_op(spelled, args, kwargs, node)


def _where(interpreter: Interpreter) -> ast.AST:
    return interpreter.call_node or interpreter.node or ast.Pass()


def _shape(value: Any) -> str:
    return f"torch.Size({list(value.data.shape)})"


# --- F.scaled_dot_product_attention --------------------------------------------------------------------------------

_SDPA = ["query", "key", "value", "attn_mask", "dropout_p", "is_causal", "scale", "enable_gqa"]


def _additive(mask: Tensor | None, dtype: np.dtype) -> np.ndarray | None:
    """A mask as the kernel adds it: a bool mask's False places -inf (ATen's convert_boolean_attn_mask)."""
    if mask is None:
        return None
    if mask.data.dtype == np.bool_:
        return np.where(mask.data, 0.0, -np.inf).astype(dtype)
    return mask.data.astype(dtype)


def _softmax_rows(scores: np.ndarray) -> np.ndarray:
    top = np.max(scores, axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(scores - top)
    return e / np.sum(e, axis=-1, keepdims=True)


def _attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, bias: np.ndarray | None,
               scale: float) -> tuple[np.ndarray, np.ndarray]:
    """softmax(scale * q k^T + bias) v, and the softmax."""
    scores = np.matmul(q, np.swapaxes(k, -1, -2)) * q.dtype.type(scale)
    if bias is not None:
        scores = scores + bias
    weights = _softmax_rows(scores).astype(q.dtype)
    return np.matmul(weights, v).astype(q.dtype), weights


def scaled_dot_product_attention(interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
    bound = _bind("scaled_dot_product_attention", _SDPA,
                  {"attn_mask": None, "dropout_p": 0.0, "is_causal": False, "scale": None, "enable_gqa": False},
                  args, kwargs)
    q, k, v, mask = bound["query"], bound["key"], bound["value"], bound["attn_mask"]
    for name, given in (("query", q), ("key", k), ("value", v)):
        if not isinstance(given, Tensor):
            raise TorchError("TypeError", f"scaled_dot_product_attention(): argument '{name}' (position "
                                          f"{_SDPA.index(name) + 1}) must be Tensor, not {type(given).__name__}")
    if bound["enable_gqa"]:
        raise interpreter.refuse(node, "F.scaled_dot_product_attention(..., enable_gqa=True) is not supported")
    if mask is not None and not isinstance(mask, Tensor):
        raise TorchError("TypeError", "scaled_dot_product_attention(): argument 'attn_mask' must be Tensor")
    dtype = q.data.dtype
    if dtype.kind != "f" or k.data.dtype != dtype or v.data.dtype != dtype:
        raise runtime_error(f"Expected query, key, and value to have the same dtype, but got query.dtype: "
                            f"{_dtype(q)} key.dtype: {_dtype(k)} and value.dtype: {_dtype(v)} instead.")
    if q.data.ndim < 2 or k.data.ndim < 2 or v.data.ndim < 2:
        raise interpreter.refuse(node, "F.scaled_dot_product_attention of inputs of fewer than 2 dims is not supported")
    if mask is not None and bound["is_causal"]:
        raise runtime_error("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    length, source = q.data.shape[-2], k.data.shape[-2]
    scale = 1.0 / math.sqrt(q.data.shape[-1]) if bound["scale"] is None else float(bound["scale"])
    bias = _additive(mask, dtype)
    if bound["is_causal"]:
        bias = np.where(np.tril(np.ones((length, source), dtype=bool)), 0.0, -np.inf).astype(dtype)
    dropout = float(bound["dropout_p"])
    fused = q.data.ndim == 4 and k.data.ndim == 4 and v.data.ndim == 4 and dropout == 0 and (
        q.data.shape[:2] == k.data.shape[:2] == v.data.shape[:2])
    if not fused:
        return _math_path(interpreter, q, k, v, bias, bound["scale"], dropout, node)
    try:
        out, weights = _attention(q.data, k.data, v.data, bias, scale)
    except ValueError:
        raise runtime_error(f"scaled_dot_product_attention: shapes {list(q.data.shape)}, {list(k.data.shape)}, "
                            f"{list(v.data.shape)} do not match") from None
    if not (interpreter.graph.grad_enabled and any(t.requires_grad for t in (q, k, v))):
        return Tensor(interpreter.graph, out)
    return _fused_node(interpreter, [q, k, v], out, weights, scale, node)


def _math_path(interpreter: Interpreter, q: Tensor, k: Tensor, v: Tensor, bias: np.ndarray | None, scale: Any,
               dropout: float, node: ast.AST) -> Any:
    """ATen's _scaled_dot_product_attention_math: q and k^T each times sqrt(scale) (MulBackward1), matmul, the mask
    added, _safe_softmax (a row all -inf gives zeros), dropout (F.dropout's draws), matmul by v."""
    from gradcli.ops import OPS
    from gradcli.run.tensor import apply

    factor = math.sqrt(1.0 / math.sqrt(q.data.shape[-1]) if scale is None else abs(float(scale)))
    span = interpreter.span(node)
    query = apply(interpreter.graph, OPS["mul_scalar"], [q], {"other": -factor if scale is not None and float(scale) < 0
                                                              else factor}, span)
    key = apply(interpreter.graph, OPS["mul_scalar"], [_call(interpreter, ".transpose", [k, -2, -1], node)],
                {"other": factor}, span)
    scores = _call(interpreter, "torch.matmul", [query, key], node)
    if bias is not None:
        scores = _call(interpreter, "torch.add", [scores, Tensor(interpreter.graph, bias)], node)
    values = scores.data
    top = np.max(values, axis=-1, keepdims=True)
    exp = np.exp(values - np.where(np.isfinite(top), top, 0))
    total = np.sum(exp, axis=-1, keepdims=True)
    weights = np.where(total > 0, exp / np.where(total > 0, total, 1), 0).astype(values.dtype)
    if interpreter.graph.grad_enabled and scores.requires_grad:
        attention = native_node(interpreter.graph, "_safe_softmax", "SafeSoftmaxBackward0", [scores], weights,
                                lambda g: ((weights * (g - np.sum(g * weights, axis=-1, keepdims=True))).astype(
                                    weights.dtype),), span)
    else:
        attention = Tensor(interpreter.graph, weights)
    if dropout > 0:
        attention = interpreter.dropout([attention, dropout], {}, node)
    return _call(interpreter, "torch.matmul", [attention, v], node)


def _dtype(t: Tensor) -> str:
    return {"float32": "float", "float64": "double"}.get(t.data.dtype.name, t.data.dtype.name)


def _fused_node(interpreter: Interpreter, inputs: list[Tensor], out: np.ndarray, weights: np.ndarray, scale: float,
                node: ast.AST) -> Tensor:
    """ScaledDotProductFlashAttentionForCpuBackward0 over query, key and value."""
    q, k, v = (t.data for t in inputs)
    kind = q.dtype.type

    def vjp(g: np.ndarray) -> tuple[Any, ...]:
        dv = np.matmul(np.swapaxes(weights, -1, -2), g)
        dp = np.matmul(g, np.swapaxes(v, -1, -2))
        ds = weights * (dp - np.sum(dp * weights, axis=-1, keepdims=True))
        dq = np.matmul(ds, k) * kind(scale)
        dk = np.matmul(np.swapaxes(ds, -1, -2), q) * kind(scale)
        return dq.astype(q.dtype), dk.astype(q.dtype), dv.astype(q.dtype)

    return native_node(interpreter.graph, "scaled_dot_product_attention", "ScaledDotProductFlashAttentionForCpuBackward0",
                       inputs, out, vjp, interpreter.span(node))


# --- masks -------------------------------------------------------------------------------------------------------


def _canonical(interpreter: Interpreter, mask: Any, name: str, other: Any, other_name: str, dtype: np.dtype,
               node: ast.AST) -> Any:
    """F._canonical_mask: a bool mask made float (-inf where True), a float mask as it is."""
    if mask is None:
        return None
    if not isinstance(mask, Tensor) or (mask.data.dtype != np.bool_ and mask.data.dtype.kind != "f"):
        raise PythonError("AssertionError", f"only bool and floating types of {name} are supported")
    if isinstance(other, Tensor) and other.data.dtype != mask.data.dtype:
        interpreter.warn("UserWarning", f"Support for mismatched {name} and {other_name} is deprecated. "
                                        "Use same type for both instead.", node)
    if mask.data.dtype == np.bool_:
        return Tensor(interpreter.graph, np.where(mask.data, -np.inf, 0.0).astype(dtype))
    return mask


def generate_square_subsequent_mask(interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Tensor:
    """nn.Transformer.generate_square_subsequent_mask(sz): -inf above the diagonal, 0 elsewhere."""
    bound = _bind("generate_square_subsequent_mask", ["sz", "device", "dtype"], {"device": None, "dtype": None},
                  args, kwargs)
    size = bound["sz"]
    if not isinstance(size, int) or isinstance(size, bool):
        raise interpreter.refuse(node, "generate_square_subsequent_mask of other than an int is not supported")
    interpreter.check_items(size * size, node)
    dtype = bound["dtype"].numpy if bound["dtype"] is not None else FLOAT32
    return Tensor(interpreter.graph, np.triu(np.full((size, size), -np.inf, dtype=dtype), 1))


# --- nn.MultiheadAttention -------------------------------------------------------------------------------------


def _xavier_uniform(interpreter: Interpreter, values: np.ndarray) -> None:
    fan_out, fan_in = values.shape[0], values.shape[1]
    bound = math.sqrt(3.0) * math.sqrt(2.0 / float(fan_in + fan_out))
    interpreter.generator.uniform_(values, -bound, bound)


class MultiheadAttention(Module):
    label = "MultiheadAttention"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        bound = _bind("MultiheadAttention.__init__",
                      ["embed_dim", "num_heads", "dropout", "bias", "add_bias_kv", "add_zero_attn", "kdim", "vdim",
                       "batch_first", "device", "dtype"],
                      {"dropout": 0.0, "bias": True, "add_bias_kv": False, "add_zero_attn": False, "kdim": None,
                       "vdim": None, "batch_first": False, "device": None, "dtype": None}, args, kwargs)
        embed, heads = bound["embed_dim"], bound["num_heads"]
        if embed <= 0 or heads <= 0:
            raise TorchError("ValueError", f"embed_dim and num_heads must be greater than 0, got embed_dim={embed} "
                                           f"and num_heads={heads} instead")
        where = _where(interpreter)
        if bound["add_bias_kv"] or bound["add_zero_attn"]:
            raise interpreter.refuse(where, "nn.MultiheadAttention with add_bias_kv or add_zero_attn is not supported")
        self.embed_dim, self.num_heads = int(embed), int(heads)
        self.kdim = int(bound["kdim"]) if bound["kdim"] is not None else self.embed_dim
        self.vdim = int(bound["vdim"]) if bound["vdim"] is not None else self.embed_dim
        self.same_dims = self.kdim == self.embed_dim and self.vdim == self.embed_dim
        self.head_dim = self.embed_dim // self.num_heads
        self.fields.update(embed_dim=self.embed_dim, kdim=self.kdim, vdim=self.vdim,
                           _qkv_same_embed_dim=self.same_dims, num_heads=self.num_heads, dropout=bound["dropout"],
                           batch_first=bool(bound["batch_first"]), head_dim=self.head_dim)
        if self.head_dim * self.num_heads != self.embed_dim:
            raise PythonError("AssertionError", "embed_dim must be divisible by num_heads")
        dtype = bound["dtype"].numpy if bound["dtype"] is not None else FLOAT32
        interpreter.check_items(4 * self.embed_dim * max(self.embed_dim, self.kdim, self.vdim), where)

        def empty(shape: tuple[int, ...]) -> Tensor:
            return parameter(interpreter, Tensor(interpreter.graph, np.zeros(shape, dtype)))

        if self.same_dims:
            self.set(interpreter, "in_proj_weight", empty((3 * self.embed_dim, self.embed_dim)))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.params[name] = None
        else:
            self.set(interpreter, "q_proj_weight", empty((self.embed_dim, self.embed_dim)))
            self.set(interpreter, "k_proj_weight", empty((self.embed_dim, self.kdim)))
            self.set(interpreter, "v_proj_weight", empty((self.embed_dim, self.vdim)))
            self.params["in_proj_weight"] = None
        if bound["bias"]:
            self.set(interpreter, "in_proj_bias", empty((3 * self.embed_dim,)))
        else:
            self.params["in_proj_bias"] = None
        out = Linear(interpreter, [self.embed_dim, self.embed_dim], {"bias": bool(bound["bias"]), "dtype": bound["dtype"]})
        out.label = "NonDynamicallyQuantizableLinear"
        self.set(interpreter, "out_proj", out)
        self.fields.update(bias_k=None, bias_v=None, add_zero_attn=False)
        # _reset_parameters: xavier_uniform_ of the in-projection, the biases zeroed (out_proj's drawn one too)
        for name in ("in_proj_weight",) if self.same_dims else ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
            _xavier_uniform(interpreter, self.params[name].data)  # type: ignore[union-attr]
        if bound["bias"]:
            out.params["bias"].data[...] = 0  # type: ignore[union-attr]

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        bound = _bind("MultiheadAttention.forward",
                      ["query", "key", "value", "key_padding_mask", "need_weights", "attn_mask",
                       "average_attn_weights", "is_causal"],
                      {"key_padding_mask": None, "need_weights": True, "attn_mask": None, "average_attn_weights": True,
                       "is_causal": False}, args, kwargs)
        query, key, value = bound["query"], bound["key"], bound["value"]
        for given in (query, key, value):
            if not isinstance(given, Tensor) or given.data.ndim not in (2, 3):
                raise interpreter.refuse(node, "nn.MultiheadAttention of inputs that are not 2-D or 3-D tensors is "
                                               "not supported")
        dtype = query.data.dtype
        mask = _canonical(interpreter, bound["attn_mask"], "attn_mask", None, "", dtype, node)
        padding = _canonical(interpreter, bound["key_padding_mask"], "key_padding_mask", bound["attn_mask"],
                             "attn_mask", dtype, node)
        batch_first = bool(self.fields.get("batch_first"))
        batched = query.data.ndim == 3
        if batch_first and batched:
            if key is value:
                if query is key:
                    query = key = value = _call(interpreter, ".transpose", [query, 1, 0], node)
                else:
                    query, key = (_call(interpreter, ".transpose", [x, 1, 0], node) for x in (query, key))
                    value = key
            else:
                query, key, value = (_call(interpreter, ".transpose", [x, 1, 0], node) for x in (query, key, value))
        out, weights = multi_head_attention_forward(
            interpreter, self, query, key, value, padding, bool(bound["need_weights"]), mask,
            bool(bound["average_attn_weights"]), bool(bound["is_causal"]), node)
        if batch_first and batched:
            out = _call(interpreter, ".transpose", [out, 1, 0], node)
        return out, weights


def _in_projection(interpreter: Interpreter, module: MultiheadAttention, query: Tensor, key: Tensor, value: Tensor,
                   node: ast.AST) -> tuple[Any, Any, Any]:
    """F._in_projection_packed (or _in_projection, of separate weights): q, k and v projected."""
    size = module.embed_dim
    w, b = module.params["in_proj_weight"], module.params["in_proj_bias"]

    def linear(x: Any, weight: Any, bias: Any) -> Any:
        return _call(interpreter, "torch.nn.functional.linear", [x, weight] + ([] if bias is None else [bias]), node)

    def unpacked(projected: Any, parts: int) -> list[Any]:
        projected = _call(interpreter, ".unflatten", [projected, -1, (parts, size)], node)
        projected = _call(interpreter, ".unsqueeze", [projected, 0], node)
        projected = _call(interpreter, ".transpose", [projected, 0, -2], node)
        projected = _call(interpreter, ".squeeze", [projected, -2], node)
        projected = _call(interpreter, ".contiguous", [projected], node)
        return [_call(interpreter, ".select", [projected, 0, i], node) for i in range(parts)]

    if not module.same_dims:
        biases = [None] * 3 if b is None else _call(interpreter, ".chunk", [b, 3], node)
        return tuple(linear(x, module.params[f"{name}_proj_weight"], bias)
                     for x, name, bias in zip((query, key, value), "qkv", biases, strict=True))
    if key is value:
        if query is key:
            q, k, v = unpacked(linear(query, w, b), 3)
            return q, k, v
        w_q, w_kv = _call(interpreter, ".split", [w, [size, 2 * size]], node)
        b_q, b_kv = (None, None) if b is None else _call(interpreter, ".split", [b, [size, 2 * size]], node)
        k, v = unpacked(linear(key, w_kv, b_kv), 2)
        return linear(query, w_q, b_q), k, v
    weights = _call(interpreter, ".chunk", [w, 3], node)
    biases = [None] * 3 if b is None else _call(interpreter, ".chunk", [b, 3], node)
    return tuple(linear(x, weight, bias)
                 for x, weight, bias in zip((query, key, value), weights, biases, strict=True))


def multi_head_attention_forward(interpreter: Interpreter, module: MultiheadAttention, query: Tensor, key: Tensor,
                                 value: Tensor, padding: Any, need_weights: bool, mask: Any, average: bool,
                                 is_causal: bool, node: ast.AST) -> tuple[Any, Any]:
    """F.multi_head_attention_forward, the module's settings and parameters given."""
    batched = query.data.ndim == 3
    if batched != (key.data.ndim == 3) or batched != (value.data.ndim == 3):
        raise PythonError("AssertionError", f"For {'batched (3-D)' if batched else 'unbatched (2-D)'} `query`, "
                                            f"expected `key` and `value` to be "
                                            f"{'3-D' if batched else '2-D'}, but found {key.data.ndim}-D and "
                                            f"{value.data.ndim}-D tensors respectively")
    if not batched:
        same_kv, same_qk = key is value, query is key
        query = _call(interpreter, ".unsqueeze", [query, 1], node)
        key = query if same_qk else _call(interpreter, ".unsqueeze", [key, 1], node)
        value = key if same_kv else _call(interpreter, ".unsqueeze", [value, 1], node)
        if padding is not None:
            padding = _call(interpreter, ".unsqueeze", [padding, 0], node)
    length, batch, embed = query.data.shape
    source = key.data.shape[0]
    heads, head_dim = module.num_heads, module.head_dim
    if is_causal and mask is None:
        raise runtime_error("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                            "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and padding is None and not need_weights:
        mask = None
    elif padding is not None:
        is_causal = False
    if embed != module.embed_dim:
        raise PythonError("AssertionError", f"was expecting embedding dimension of {module.embed_dim}, but got {embed}")
    if module.same_dims and key.data.shape != value.data.shape:
        raise PythonError("AssertionError", f"key shape {_shape(key)} does not match value shape {_shape(value)}")
    q, k, v = _in_projection(interpreter, module, query, key, value, node)
    if mask is not None:
        if mask.data.ndim == 2:
            if mask.data.shape != (length, source):
                raise runtime_error(f"The shape of the 2D attn_mask is {_shape(mask)}, but should be "
                                    f"{(length, source)}.")
            mask = _call(interpreter, ".unsqueeze", [mask, 0], node)
        elif mask.data.ndim == 3:
            if mask.data.shape != (batch * heads, length, source):
                raise runtime_error(f"The shape of the 3D attn_mask is {_shape(mask)}, but should be "
                                    f"{(batch * heads, length, source)}.")
        else:
            raise runtime_error(f"attn_mask's dimension {mask.data.ndim} is not supported")
    q = _call(interpreter, ".transpose", [_call(interpreter, ".view", [q, length, batch * heads, head_dim], node), 0, 1],
              node)
    k = _call(interpreter, ".transpose", [_call(interpreter, ".view", [k, k.data.shape[0], batch * heads, head_dim],
                                                node), 0, 1], node)
    v = _call(interpreter, ".transpose", [_call(interpreter, ".view", [v, v.data.shape[0], batch * heads, head_dim],
                                                node), 0, 1], node)
    source = k.data.shape[1]
    if padding is not None:
        if padding.data.shape[0] != batch:
            raise PythonError("AssertionError", f"Expected key_padded_mask.shape[0] to be {batch}, but got "
                                                f"{padding.data.shape[0]}")
        if padding.data.shape[1] != source:
            raise PythonError("AssertionError", f"Expected key_padded_mask.shape[1] to be {source}, but got "
                                                f"{padding.data.shape[1]}")
        padding = _call(interpreter, ".view", [padding, batch, 1, 1, source], node)
        padding = _call(interpreter, ".expand", [padding, -1, heads, -1, -1], node)
        padding = _call(interpreter, ".reshape", [padding, batch * heads, 1, source], node)
        mask = padding if mask is None else _call(interpreter, "torch.add", [mask, padding], node)
    dropout = float(module.fields.get("dropout", 0.0)) if module.training else 0.0
    projection = module.children["out_proj"]
    assert isinstance(projection, Linear)
    out_weight, out_bias = projection.params["weight"], projection.params["bias"]

    def out_projection(attended: Any) -> Any:
        projected = _call(interpreter, "torch.nn.functional.linear",
                          [attended, out_weight] + ([] if out_bias is None else [out_bias]), node)
        return _call(interpreter, ".view", [projected, length, batch, projected.data.shape[1]], node)

    if need_weights:
        q_scaled = _call(interpreter, "torch.mul", [q, math.sqrt(1.0 / float(head_dim))], node)
        k_t = _call(interpreter, ".transpose", [k, -2, -1], node)
        if mask is not None:
            scores = _call(interpreter, "torch.baddbmm", [mask, q_scaled, k_t], node)
        else:
            scores = _call(interpreter, "torch.bmm", [q_scaled, k_t], node)
        weights = _call(interpreter, "torch.nn.functional.softmax", [scores], node, dim=-1)
        if dropout > 0.0:
            weights = interpreter.dropout([weights], {"p": dropout}, node)
        attended = _call(interpreter, "torch.bmm", [weights, v], node)
        attended = _call(interpreter, ".reshape", [_call(interpreter, ".transpose", [attended, 0, 1], node),
                                                   length * batch, embed], node)
        out = out_projection(attended)
        weights = _call(interpreter, ".view", [weights, batch, heads, length, source], node)
        if average:
            weights = _call(interpreter, ".mean", [weights], node, dim=1)
        if not batched:
            out = _call(interpreter, ".squeeze", [out, 1], node)
            weights = _call(interpreter, ".squeeze", [weights, 0], node)
        return out, weights
    if mask is not None:
        if mask.data.shape[0] == 1 and mask.data.ndim == 3:
            mask = _call(interpreter, ".unsqueeze", [mask, 0], node)
        else:
            mask = _call(interpreter, ".view", [mask, batch, heads, -1, source], node)
    q = _call(interpreter, ".view", [q, batch, heads, length, head_dim], node)
    k = _call(interpreter, ".view", [k, batch, heads, source, head_dim], node)
    v = _call(interpreter, ".view", [v, batch, heads, source, head_dim], node)
    attended = scaled_dot_product_attention(interpreter, [q, k, v, mask, dropout, is_causal], {}, node)
    # (the fused kernel's output has the query's strides, which this permute makes contiguous: PyTorch's reshape is
    # a view here)
    attended = _fused_view(interpreter, _call(interpreter, ".permute", [attended, 2, 0, 1, 3], node),
                           (batch * length, embed), node)
    out = out_projection(attended)
    if not batched:
        out = _call(interpreter, ".squeeze", [out, 1], node)
    return out, None


def _fused_view(interpreter: Interpreter, x: Tensor, shape: tuple[int, ...], node: ast.AST) -> Tensor:
    from gradcli.ops import OPS
    from gradcli.run.tensor import apply

    if not x.requires_grad:
        return Tensor(interpreter.graph, np.reshape(x.data, shape))
    return apply(interpreter.graph, OPS["reshape"], [x], {"shape": shape}, interpreter.span(node))


# --- nn.TransformerEncoderLayer, nn.TransformerEncoder -----------------------------------------------------------


class TransformerEncoderLayer(Module):
    label = "TransformerEncoderLayer"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        bound = _bind("TransformerEncoderLayer.__init__",
                      ["d_model", "nhead", "dim_feedforward", "dropout", "activation", "layer_norm_eps", "batch_first",
                       "norm_first", "bias", "device", "dtype"],
                      {"dim_feedforward": 2048, "dropout": 0.1, "activation": "relu", "layer_norm_eps": 1e-05,
                       "batch_first": False, "norm_first": False, "bias": True, "device": None, "dtype": None},
                      args, kwargs)
        where = _where(interpreter)
        activation = bound["activation"]
        if activation not in ("relu", "gelu"):
            raise interpreter.refuse(where, "nn.TransformerEncoderLayer with an activation other than 'relu' or "
                                            "'gelu' (a string) is not supported")
        model, width, p = int(bound["d_model"]), int(bound["dim_feedforward"]), float(bound["dropout"])
        factory = {"dtype": bound["dtype"]}
        self.set(interpreter, "self_attn", MultiheadAttention(
            interpreter, [model, bound["nhead"]], {"dropout": p, "bias": bound["bias"],
                                                   "batch_first": bound["batch_first"], **factory}))
        self.set(interpreter, "linear1", Linear(interpreter, [model, width], {"bias": bound["bias"], **factory}))
        self.set(interpreter, "dropout", _dropout(interpreter, p))
        self.set(interpreter, "linear2", Linear(interpreter, [width, model], {"bias": bound["bias"], **factory}))
        self.fields["norm_first"] = bool(bound["norm_first"])
        norm = {"eps": bound["layer_norm_eps"], "bias": bound["bias"], **factory}
        self.set(interpreter, "norm1", LayerNorm(interpreter, [model], dict(norm)))
        self.set(interpreter, "norm2", LayerNorm(interpreter, [model], dict(norm)))
        self.set(interpreter, "dropout1", _dropout(interpreter, p))
        self.set(interpreter, "dropout2", _dropout(interpreter, p))
        self.fields["activation_relu_or_gelu"] = 1 if activation == "relu" else 2
        self.activation = activation

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        bound = _bind("TransformerEncoderLayer.forward", ["src", "src_mask", "src_key_padding_mask", "is_causal"],
                      {"src_mask": None, "src_key_padding_mask": None, "is_causal": False}, args, kwargs)
        x = bound["src"]
        if not isinstance(x, Tensor):
            raise interpreter.refuse(node, "nn.TransformerEncoderLayer of other than a tensor is not supported")
        dtype = x.data.dtype
        padding = _canonical(interpreter, bound["src_key_padding_mask"], "src_key_padding_mask", bound["src_mask"],
                             "src_mask", dtype, node)
        mask = _canonical(interpreter, bound["src_mask"], "src_mask", None, "", dtype, node)
        causal = bool(bound["is_causal"])
        run = _children_runner(interpreter, self.children, node)

        def attention_block(y: Any) -> Any:
            attended = run("self_attn", y, y, y, attn_mask=mask, key_padding_mask=padding, need_weights=False,
                           is_causal=causal)[0]
            return run("dropout1", attended)

        def feed_forward(y: Any) -> Any:
            hidden = run("linear1", y)
            hidden = _call(interpreter, f"torch.nn.functional.{self.activation}", [hidden], node)
            return run("dropout2", run("linear2", run("dropout", hidden)))

        if self.fields.get("norm_first"):
            x = _call(interpreter, "torch.add", [x, attention_block(run("norm1", x))], node)
            return _call(interpreter, "torch.add", [x, feed_forward(run("norm2", x))], node)
        x = run("norm1", _call(interpreter, "torch.add", [x, attention_block(x)], node))
        return run("norm2", _call(interpreter, "torch.add", [x, feed_forward(x)], node))


def _children_runner(interpreter: Interpreter, children: dict[str, Any], node: ast.AST) -> Callable[..., Any]:
    """run(name, *inputs, **options): a layer's child module called as its forward calls it."""
    def run(name: str, *inputs: Any, **options: Any) -> Any:
        module = children[name]
        assert module is not None
        return interpreter.call_object(module, list(inputs), options, node)

    return run


def _dropout(interpreter: Interpreter, p: float) -> Module:
    from gradcli.run.nn import Dropout

    return Dropout(interpreter, [p], {})


class TransformerEncoder(Module):
    label = "TransformerEncoder"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        bound = _bind("TransformerEncoder.__init__",
                      ["encoder_layer", "num_layers", "norm", "enable_nested_tensor", "mask_check"],
                      {"norm": None, "enable_nested_tensor": True, "mask_check": True}, args, kwargs)
        layer, count = bound["encoder_layer"], bound["num_layers"]
        where = _where(interpreter)
        if not isinstance(layer, TransformerEncoderLayer) or layer.cls is not None:
            raise interpreter.refuse(where, "nn.TransformerEncoder of other than an nn.TransformerEncoderLayer is not "
                                            "supported")
        from gradcli.run.nn import ModuleList

        layers = ModuleList(interpreter, [[_deep_copy(interpreter, layer, {}, where) for _ in range(int(count))]], {})
        self.set(interpreter, "layers", layers)
        self.fields["num_layers"] = int(count)
        self.set(interpreter, "norm", bound["norm"])
        if bound["enable_nested_tensor"]:
            reason = _nested_tensor_reason(layer)
            if reason:
                interpreter.warn("UserWarning", f"enable_nested_tensor is True, but self.use_nested_tensor is False "
                                                f"because {reason}", where)
        self.fields["enable_nested_tensor"] = bool(bound["enable_nested_tensor"])
        self.fields["use_nested_tensor"] = bool(bound["enable_nested_tensor"]) and not _nested_tensor_reason(layer)
        self.fields["mask_check"] = bool(bound["mask_check"])

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        bound = _bind("TransformerEncoder.forward", ["src", "mask", "src_key_padding_mask", "is_causal"],
                      {"mask": None, "src_key_padding_mask": None, "is_causal": None}, args, kwargs)
        x, mask, padding = bound["src"], bound["mask"], bound["src_key_padding_mask"]
        if not isinstance(x, Tensor):
            raise interpreter.refuse(node, "nn.TransformerEncoder of other than a tensor is not supported")
        dtype = x.data.dtype
        padding = _canonical(interpreter, padding, "src_key_padding_mask", mask, "mask", dtype, node)
        mask = _canonical(interpreter, mask, "mask", None, "", dtype, node)
        layers = self.children["layers"]
        first = next(iter(layers.children.values()), None) if layers is not None else None
        batch_first = bool(first is not None and first.children["self_attn"].fields.get("batch_first"))  # type: ignore[union-attr]
        length = x.data.shape[1 if batch_first and x.data.ndim == 3 else 0]
        causal = _detect_causal(mask, bound["is_causal"], length)
        assert layers is not None
        nested = self._nested(interpreter, first, x, mask, padding)
        for layer in layers.children.values():
            assert layer is not None
            x = interpreter.call_object(layer, [x], {"src_mask": mask, "is_causal": causal,
                                                     "src_key_padding_mask": padding}, node)
        if nested:  # (PyTorch's output.to_padded_tensor(0.0): the padded places are zeros)
            x = Tensor(interpreter.graph, np.where(padding.data[..., None] != 0, 0, x.data).astype(x.data.dtype))
        norm = self.children.get("norm")
        if norm is not None:
            x = interpreter.call_object(norm, [x], {}, node)
        return x


    def _nested(self, interpreter: Interpreter, first: Any, x: Tensor, mask: Any, padding: Any) -> bool:
        """Whether PyTorch's forward takes its nested-tensor path (in eval mode without a graph, a left-aligned key
        padding mask and no mask), whose output is zero where the mask pads."""
        if not self.fields.get("use_nested_tensor") or first is None or first.training or x.data.ndim != 3:
            return False
        if padding is None or mask is not None:
            return False
        kept = padding.data == 0
        if self.fields.get("mask_check") and not bool(np.all(kept == (np.cumsum(~kept, axis=1) == 0))):
            return False  # (not left aligned)
        tensors = [x, *(t for _, t in first.named_parameters())]
        return not (interpreter.graph.grad_enabled and any(t.requires_grad for t in tensors))


def _nested_tensor_reason(layer: TransformerEncoderLayer) -> str:
    attention = layer.children["self_attn"]
    assert attention is not None
    if not attention.fields.get("batch_first"):
        return "encoder_layer.self_attn.batch_first was not True(use batch_first for better inference performance)"
    if not attention.same_dims:  # type: ignore[attr-defined]
        return "encoder_layer.self_attn._qkv_same_embed_dim was not True"
    if attention.params["in_proj_bias"] is None:
        return "encoder_layer.self_attn was passed bias=False"
    if layer.fields.get("norm_first"):
        return "encoder_layer.norm_first was True"
    if attention.num_heads % 2 == 1:  # type: ignore[attr-defined]
        return "num_head is odd"
    return ""


def _detect_causal(mask: Any, is_causal: Any, size: int) -> bool:
    """torch.nn.modules.transformer._detect_is_causal_mask: is_causal as given, else whether the mask is the
    square subsequent mask of the sequence's length."""
    if is_causal is not None:
        return bool(is_causal)
    if mask is None or not isinstance(mask, Tensor) or mask.data.shape != (size, size):
        return False
    causal = np.triu(np.full((size, size), -np.inf, dtype=mask.data.dtype), 1)
    return bool(np.array_equal(mask.data, causal))


_LAYER = ["d_model", "nhead", "dim_feedforward", "dropout", "activation", "layer_norm_eps", "batch_first", "norm_first",
          "bias", "device", "dtype"]
_LAYER_DEFAULTS = {"dim_feedforward": 2048, "dropout": 0.1, "activation": "relu", "layer_norm_eps": 1e-05,
                   "batch_first": False, "norm_first": False, "bias": True, "device": None, "dtype": None}


class TransformerDecoderLayer(Module):
    label = "TransformerDecoderLayer"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        bound = _bind("TransformerDecoderLayer.__init__", _LAYER, _LAYER_DEFAULTS, args, kwargs)
        activation = bound["activation"]
        if activation not in ("relu", "gelu"):
            raise interpreter.refuse(_where(interpreter), "nn.TransformerDecoderLayer with an activation other than "
                                                          "'relu' or 'gelu' (a string) is not supported")
        model, width, p = int(bound["d_model"]), int(bound["dim_feedforward"]), float(bound["dropout"])
        factory = {"dtype": bound["dtype"]}
        for name in ("self_attn", "multihead_attn"):
            self.set(interpreter, name, MultiheadAttention(
                interpreter, [model, bound["nhead"]], {"dropout": p, "batch_first": bound["batch_first"],
                                                       "bias": bound["bias"], **factory}))
        self.set(interpreter, "linear1", Linear(interpreter, [model, width], {"bias": bound["bias"], **factory}))
        self.set(interpreter, "dropout", _dropout(interpreter, p))
        self.set(interpreter, "linear2", Linear(interpreter, [width, model], {"bias": bound["bias"], **factory}))
        self.fields["norm_first"] = bool(bound["norm_first"])
        norm = {"eps": bound["layer_norm_eps"], "bias": bound["bias"], **factory}
        for name in ("norm1", "norm2", "norm3"):
            self.set(interpreter, name, LayerNorm(interpreter, [model], dict(norm)))
        for name in ("dropout1", "dropout2", "dropout3"):
            self.set(interpreter, name, _dropout(interpreter, p))
        self.activation = activation

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        bound = _bind("TransformerDecoderLayer.forward",
                      ["tgt", "memory", "tgt_mask", "memory_mask", "tgt_key_padding_mask", "memory_key_padding_mask",
                       "tgt_is_causal", "memory_is_causal"],
                      {"tgt_mask": None, "memory_mask": None, "tgt_key_padding_mask": None,
                       "memory_key_padding_mask": None, "tgt_is_causal": False, "memory_is_causal": False},
                      args, kwargs)
        x, memory = bound["tgt"], bound["memory"]
        if not isinstance(x, Tensor) or not isinstance(memory, Tensor):
            raise interpreter.refuse(node, "nn.TransformerDecoderLayer of other than tensors is not supported")
        run = _children_runner(interpreter, self.children, node)

        def self_block(y: Any) -> Any:
            return run("dropout1", run("self_attn", y, y, y, attn_mask=bound["tgt_mask"],
                                       key_padding_mask=bound["tgt_key_padding_mask"],
                                       is_causal=bool(bound["tgt_is_causal"]), need_weights=False)[0])

        def memory_block(y: Any) -> Any:
            return run("dropout2", run("multihead_attn", y, memory, memory, attn_mask=bound["memory_mask"],
                                       key_padding_mask=bound["memory_key_padding_mask"],
                                       is_causal=bool(bound["memory_is_causal"]), need_weights=False)[0])

        def feed_forward(y: Any) -> Any:
            hidden = _call(interpreter, f"torch.nn.functional.{self.activation}", [run("linear1", y)], node)
            return run("dropout3", run("linear2", run("dropout", hidden)))

        def add(a: Any, b: Any) -> Any:
            return _call(interpreter, "torch.add", [a, b], node)

        if self.fields.get("norm_first"):
            x = add(x, self_block(run("norm1", x)))
            x = add(x, memory_block(run("norm2", x)))
            return add(x, feed_forward(run("norm3", x)))
        x = run("norm1", add(x, self_block(x)))
        x = run("norm2", add(x, memory_block(x)))
        return run("norm3", add(x, feed_forward(x)))


class TransformerDecoder(Module):
    label = "TransformerDecoder"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        bound = _bind("TransformerDecoder.__init__", ["decoder_layer", "num_layers", "norm"], {"norm": None},
                      args, kwargs)
        layer, where = bound["decoder_layer"], _where(interpreter)
        if not isinstance(layer, TransformerDecoderLayer) or layer.cls is not None:
            raise interpreter.refuse(where, "nn.TransformerDecoder of other than an nn.TransformerDecoderLayer is not "
                                            "supported")
        from gradcli.run.nn import ModuleList

        copies = [_deep_copy(interpreter, layer, {}, where) for _ in range(int(bound["num_layers"]))]
        self.set(interpreter, "layers", ModuleList(interpreter, [copies], {}))
        self.fields["num_layers"] = int(bound["num_layers"])
        self.set(interpreter, "norm", bound["norm"])

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        names = ["tgt", "memory", "tgt_mask", "memory_mask", "tgt_key_padding_mask", "memory_key_padding_mask",
                 "tgt_is_causal", "memory_is_causal"]
        bound = _bind("TransformerDecoder.forward", names,
                      {"tgt_mask": None, "memory_mask": None, "tgt_key_padding_mask": None,
                       "memory_key_padding_mask": None, "tgt_is_causal": None, "memory_is_causal": False},
                      args, kwargs)
        x = bound["tgt"]
        if not isinstance(x, Tensor):
            raise interpreter.refuse(node, "nn.TransformerDecoder of other than a tensor is not supported")
        layers = self.children["layers"]
        assert layers is not None
        first = next(iter(layers.children.values()), None)
        batch_first = bool(first is not None and first.children["self_attn"].fields.get("batch_first"))  # type: ignore[union-attr]
        length = x.data.shape[1 if batch_first and x.data.ndim == 3 else 0]
        settings = {name: bound[name] for name in names[2:]}
        settings["tgt_is_causal"] = _detect_causal(bound["tgt_mask"], bound["tgt_is_causal"], length)
        for layer in layers.children.values():
            assert layer is not None
            x = interpreter.call_object(layer, [x, bound["memory"]], dict(settings), node)
        norm = self.children.get("norm")
        return x if norm is None else interpreter.call_object(norm, [x], {}, node)


class Transformer(Module):
    """nn.Transformer: an encoder and a decoder of copies of their layers, each with a final LayerNorm, then every
    parameter of more than one dim drawn again by xavier_uniform_ in the order of parameters() (_reset_parameters)."""

    label = "Transformer"

    def __init__(self, interpreter: Interpreter, args: Args, kwargs: Kwargs) -> None:
        super().__init__()
        bound = _bind("Transformer.__init__",
                      ["d_model", "nhead", "num_encoder_layers", "num_decoder_layers", "dim_feedforward", "dropout",
                       "activation", "custom_encoder", "custom_decoder", "layer_norm_eps", "batch_first", "norm_first",
                       "bias", "device", "dtype"],
                      {"d_model": 512, "nhead": 8, "num_encoder_layers": 6, "num_decoder_layers": 6,
                       "dim_feedforward": 2048, "dropout": 0.1, "activation": "relu", "custom_encoder": None,
                       "custom_decoder": None, "layer_norm_eps": 1e-05, "batch_first": False, "norm_first": False,
                       "bias": True, "device": None, "dtype": None}, args, kwargs)
        where = _where(interpreter)
        if bound["custom_encoder"] is not None or bound["custom_decoder"] is not None:
            raise interpreter.refuse(where, "nn.Transformer with a custom_encoder or custom_decoder is not supported")
        layer = {name: bound[name] for name in _LAYER[2:]}
        model = int(bound["d_model"])
        norm = {"eps": bound["layer_norm_eps"], "bias": bound["bias"], "dtype": bound["dtype"]}
        encoder_layer = TransformerEncoderLayer(interpreter, [model, bound["nhead"]], dict(layer))
        self.set(interpreter, "encoder", TransformerEncoder(
            interpreter, [encoder_layer, bound["num_encoder_layers"], LayerNorm(interpreter, [model], dict(norm))], {}))
        decoder_layer = TransformerDecoderLayer(interpreter, [model, bound["nhead"]], dict(layer))
        self.set(interpreter, "decoder", TransformerDecoder(
            interpreter, [decoder_layer, bound["num_decoder_layers"], LayerNorm(interpreter, [model], dict(norm))], {}))
        for _, param in self.named_parameters():
            if param.data.ndim > 1:
                _xavier_uniform(interpreter, param.data)
        self.fields.update(d_model=model, nhead=bound["nhead"], batch_first=bool(bound["batch_first"]))

    def forward(self, interpreter: Interpreter, args: Args, kwargs: Kwargs, node: ast.AST) -> Any:
        bound = _bind("Transformer.forward",
                      ["src", "tgt", "src_mask", "tgt_mask", "memory_mask", "src_key_padding_mask",
                       "tgt_key_padding_mask", "memory_key_padding_mask", "src_is_causal", "tgt_is_causal",
                       "memory_is_causal"],
                      {"src_mask": None, "tgt_mask": None, "memory_mask": None, "src_key_padding_mask": None,
                       "tgt_key_padding_mask": None, "memory_key_padding_mask": None, "src_is_causal": None,
                       "tgt_is_causal": None, "memory_is_causal": False}, args, kwargs)
        src, tgt = bound["src"], bound["tgt"]
        if not isinstance(src, Tensor) or not isinstance(tgt, Tensor):
            raise interpreter.refuse(node, "nn.Transformer of other than tensors is not supported")
        batched = src.data.ndim == 3
        if not self.fields["batch_first"] and batched and src.data.shape[1] != tgt.data.shape[1]:
            raise runtime_error("the batch number of src and tgt must be equal")
        if self.fields["batch_first"] and batched and src.data.shape[0] != tgt.data.shape[0]:
            raise runtime_error("the batch number of src and tgt must be equal")
        if src.data.shape[-1] != self.fields["d_model"] or tgt.data.shape[-1] != self.fields["d_model"]:
            raise runtime_error("the feature number of src and tgt must be equal to d_model")
        encoder, decoder = self.children["encoder"], self.children["decoder"]
        assert encoder is not None and decoder is not None
        memory = interpreter.call_object(encoder, [src], {"mask": bound["src_mask"],
                                                          "src_key_padding_mask": bound["src_key_padding_mask"],
                                                          "is_causal": bound["src_is_causal"]}, node)
        return interpreter.call_object(decoder, [tgt, memory], {
            "tgt_mask": bound["tgt_mask"], "memory_mask": bound["memory_mask"],
            "tgt_key_padding_mask": bound["tgt_key_padding_mask"],
            "memory_key_padding_mask": bound["memory_key_padding_mask"], "tgt_is_causal": bound["tgt_is_causal"],
            "memory_is_causal": bound["memory_is_causal"]}, node)


MODULES: dict[str, type[Module]] = {"MultiheadAttention": MultiheadAttention, "Transformer": Transformer,
                                    "TransformerDecoderLayer": TransformerDecoderLayer,
                                    "TransformerDecoder": TransformerDecoder,
                                    "TransformerEncoderLayer": TransformerEncoderLayer,
                                    "TransformerEncoder": TransformerEncoder}
