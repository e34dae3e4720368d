"""One layer of an LSTM over a whole sequence, as PyTorch's CPU build records nn.LSTM: one node,
MkldnnRnnLayerBackward0, of (input, weight_ih, weight_hh, bias_ih, bias_hh, h0, c0) giving (output,
h_n, c_n). (nn.RNN, nn.GRU and the cells are recorded as the small ops PyTorch runs them with, and
are built from those rows by `gradcli run`; only the LSTM is one fused node there.)

The gates of a step are x_t W_ih^T + h W_hh^T + (b_ih + b_hh), in PyTorch's order i, f, g, o:
c' = sigmoid(f) c + sigmoid(i) tanh(g), h' = sigmoid(o) tanh(c'); `reverse` runs the sequence from
its end (the second direction of a bidirectional LSTM). The gradient is the backward through time,
from the cotangent of the one part asked for (the parts' nodes add up in the sweep). oneDNN's own
float32 kernels sum and round in their order, so the last bits may differ from PyTorch's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradcli.ops.core import Array, structural


def _sigmoid(x: Array) -> Array:
    one = x.dtype.type(1)
    return one / (one + np.exp(-x))


def _steps(x: Array, w_ih: Array, w_hh: Array, b_ih: Array, b_hh: Array, h0: Array, c0: Array,
           reverse: bool) -> tuple[list[int], list[tuple[Any, ...]]]:
    """The order of the steps, and per step (h before, c before, i, f, g, o, c after, h after)."""
    order = list(range(x.shape[0]))[::-1] if reverse else list(range(x.shape[0]))
    bias = b_ih + b_hh
    h, c = h0, c0
    saved = []
    for t in order:
        gates = x[t] @ w_ih.T + h @ w_hh.T + bias
        i, f, g, o = np.split(gates, 4, axis=-1)
        i, f, g, o = _sigmoid(i), _sigmoid(f), np.tanh(g), _sigmoid(o)
        c_next = f * c + i * g
        h_next = o * np.tanh(c_next)
        saved.append((h, c, i, f, g, o, c_next, h_next))
        h, c = h_next, c_next
    return order, saved


def _layer(x: Array, w_ih: Array, w_hh: Array, b_ih: Array, b_hh: Array, h0: Array, c0: Array,
           ranks: tuple[int, ...], reverse: bool = False, part: int = 0, of: int | None = None) -> Array:
    order, saved = _steps(x, w_ih, w_hh, b_ih, b_hh, h0, c0, reverse)
    if part == 0:
        out = np.zeros((x.shape[0], *np.shape(h0)), dtype=np.result_type(x, h0))
        for t, step in zip(order, saved, strict=True):
            out[t] = step[7]
        return out
    if not saved:
        return np.array(h0 if part == 1 else c0)
    return saved[-1][7] if part == 1 else saved[-1][6]


def _layer_vjp(g: Array, ans: Array, x: Array, w_ih: Array, w_hh: Array, b_ih: Array, b_hh: Array, h0: Array,
               c0: Array, ranks: tuple[int, ...], reverse: bool = False, part: int = 0,
               of: int | None = None) -> tuple[Array, ...]:
    order, saved = _steps(x, w_ih, w_hh, b_ih, b_hh, h0, c0, reverse)
    dx, dw_ih, dw_hh, db = np.zeros_like(x), np.zeros_like(w_ih), np.zeros_like(w_hh), np.zeros_like(b_ih)
    dh = g if part == 1 else np.zeros_like(h0)
    dc = g if part == 2 else np.zeros_like(c0)
    for t, (h, c, i, f, gg, o, c_next, _) in reversed(list(zip(order, saved, strict=True))):
        if part == 0:
            dh = dh + g[t]
        tanh_c = np.tanh(c_next)
        do = dh * tanh_c
        dc = dc + dh * o * (1 - tanh_c * tanh_c)
        di, df, dg = dc * gg, dc * c, dc * i
        dgates = np.concatenate([di * i * (1 - i), df * f * (1 - f), dg * (1 - gg * gg), do * o * (1 - o)], axis=-1)
        dw_ih += dgates.T @ x[t]
        dw_hh += dgates.T @ h
        db += dgates.sum(axis=0)
        dx[t] = dgates @ w_ih
        dh = dgates @ w_hh
        dc = dc * f
    return dx, dw_ih, dw_hh, db, db.copy(), dh, dc


def _layer_shape(x: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any, h0: Any, c0: Any, reverse: bool = False,
                 part: int = 0, of: int | None = None) -> Any:
    if part not in (0, 1, 2):
        raise ValueError("an LSTM layer gives three parts: output, h_n, c_n")
    return (x[0], *h0) if part == 0 else tuple(h0)


ROWS = [
    structural("mkldnn_rnn_layer", 7, _layer, _layer_vjp, "MkldnnRnnLayerBackward0", callable=False, parts=3,
               shape=_layer_shape, reference=None, dtype="keeps",
               text=lambda args, reverse=False, part=0, **params: f"lstm_layer({', '.join(args)})[{part}]"),
]
