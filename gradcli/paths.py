"""Paths from the output back to each input, and what each contributes to the gradient.

A gradient is a sum over paths: every path from the output to an input multiplies the
local derivatives of the edges it crosses (for tensors, applies their VJPs in turn to the
seed), and the gradient is the sum of those contributions. `x*x` has two edges into `x`,
so paths are sequences of edges, and their number can grow exponentially with the tape.

- `count_paths` counts them exactly by dynamic programming (Python ints never overflow).
- For scalar programs, `best_paths` finds the K largest contributions in magnitude by
  k-best dynamic programming over the tape in O(edges * K log K), never listing the rest.
- For tensor programs, contributions are vectors; `enumerate_paths` walks them depth-first
  up to a limit and keeps the K of largest norm.
Either way, what the listed paths leave of the gradient is reported as `unlisted`.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

import numpy as np

from gradcli.autodiff import GradResult, local_derivatives
from gradcli.ops import call_vjp
from gradcli.tape import APPLY

Array = np.ndarray

DEFAULT_MAX_PATHS = 16
ENUMERATION_LIMIT = 20_000  # paths walked, at most, for a tensor program


@dataclass(frozen=True)
class Path:
    nodes: tuple[int, ...]  # tape indices, from the root down to the input
    positions: tuple[int, ...]  # which argument each edge enters (x*x has edges 0 and 1 into x)
    factors: tuple[float, ...] | None  # the local derivative of each edge (scalar programs)
    contribution: Array


@dataclass(frozen=True)
class InputPaths:
    name: str
    total_paths: int
    listed: list[Path]  # the largest contributions, largest first
    gradient: Array
    unlisted: Array  # gradient - sum of the listed contributions
    searched_all: bool  # False when a tensor program had more paths than were walked


def count_paths(result: GradResult) -> list[int]:
    """The number of paths from the roots to every node (edges counted with multiplicity)."""
    nodes = result.tape.nodes
    counts = [0] * len(nodes)
    for root in result.roots:
        counts[root] += 1
    for index in range(max(result.roots, default=-1), -1, -1):
        if counts[index] and nodes[index].kind == APPLY:
            for arg in nodes[index].args:
                if nodes[arg].requires_grad:
                    counts[arg] += counts[index]
    return counts


def _is_scalar_program(result: GradResult, counts: list[int]) -> bool:
    return all(result.values[i].size == 1 for i, c in enumerate(counts) if c)


def best_paths(result: GradResult, k: int, counts: list[int], targets: set[int]) -> dict[int, list[Path]]:
    """The k paths of largest |contribution| into each target, for a scalar program."""
    nodes = result.tape.nodes
    values = result.values
    # An entry: (log |product|, product, tie-break, predecessor node, edge position, predecessor's rank).
    best: dict[int, list[tuple[float, float, int, int, int, int]]] = {}
    candidates: dict[int, list[tuple[float, float, int, int, int, int]]] = {}
    factors_of: dict[int, list[float | None]] = {}
    order = 0
    for root, seed in zip(result.roots, result.seeds, strict=True):
        product = float(seed.reshape(()))
        candidates.setdefault(root, []).append((_log_abs(product), product, order, -1, -1, -1))
        order += 1
    for index in range(max(result.roots, default=-1), -1, -1):
        if not counts[index] or index not in candidates:
            continue
        entries = heapq.nlargest(k, candidates.pop(index), key=lambda e: (e[0], -e[2]))
        best[index] = entries
        node = nodes[index]
        if node.kind != APPLY:
            continue
        factors = [None if f is None else float(f.reshape(())) for f in local_derivatives(result.tape, values, index)]
        factors_of[index] = factors
        for position, (arg, factor) in enumerate(zip(node.args, factors, strict=True)):
            if factor is None or not nodes[arg].requires_grad:
                continue
            log_factor = _log_abs(factor)
            pending = candidates.setdefault(arg, [])
            for rank, (magnitude, product, _, _, _, _) in enumerate(entries):
                pending.append((magnitude + log_factor, product * factor, order, index, position, rank))
                order += 1

    found: dict[int, list[Path]] = {}
    for target in targets:
        found[target] = []
        for entry in best.get(target, []):
            chain = [target]
            positions: list[int] = []
            path_factors: list[float] = []
            current = entry
            while current[3] >= 0:
                parent, position, parent_rank = current[3], current[4], current[5]
                factor = factors_of[parent][position]
                assert factor is not None
                path_factors.append(factor)
                positions.append(position)
                chain.append(parent)
                current = best[parent][parent_rank]
            found[target].append(Path(tuple(reversed(chain)), tuple(reversed(positions)),
                                      tuple(reversed(path_factors)), np.asarray(entry[1])))
    return found


def _log_abs(number: float) -> float:
    return math.log(abs(number)) if number else -math.inf


def enumerate_paths(
    result: GradResult, k: int, targets: set[int], limit: int = ENUMERATION_LIMIT
) -> tuple[dict[int, list[Path]], bool]:
    """Walk paths depth-first, pushing the seed through each edge's VJP; keep the k largest.

    Returns the kept paths per target, and whether every path was walked.
    """
    nodes = result.tape.nodes
    values = result.values
    kept: dict[int, list[tuple[float, int, Path]]] = {}
    walked = 0
    stack: list[tuple[int, Array, tuple[int, ...], tuple[int, ...]]] = [
        (root, seed, (root,), ()) for root, seed in zip(result.roots, result.seeds, strict=True)
    ]
    complete = True
    with np.errstate(all="ignore"):
        while stack:
            index, cotangent, chain, positions = stack.pop()
            node = nodes[index]
            if index in targets:
                walked += 1
                heap = kept.setdefault(index, [])
                item = (float(np.linalg.norm(cotangent)), -walked, Path(chain, positions, None, cotangent))
                if len(heap) < k:
                    heapq.heappush(heap, item)
                else:
                    heapq.heappushpop(heap, item)
                if walked >= limit:
                    complete = False
                    break
            if node.kind != APPLY:
                continue
            assert node.op is not None
            cotangents = call_vjp(node.op, cotangent, values[index], [values[a] for a in node.args], node.params,
                                  [0] * len(node.args), [nodes[a].requires_grad for a in node.args])
            for position in reversed(range(len(node.args))):
                arg, c = node.args[position], cotangents[position]
                if c is not None:
                    stack.append((arg, c, (*chain, arg), (*positions, position)))
    return {i: [path for _, _, path in sorted(heap, reverse=True)] for i, heap in kept.items()}, complete


def paths(result: GradResult, k: int = DEFAULT_MAX_PATHS) -> list[InputPaths]:
    """Per reported input: its path count, its k largest paths, and what they leave out."""
    counts = count_paths(result)
    targets = {result.index_of(name) for name in result.wrt}
    if _is_scalar_program(result, counts):
        found, searched_all = best_paths(result, k, counts, targets), True
    else:
        found, searched_all = enumerate_paths(result, k, targets)
    gradients = result.grad
    report = []
    for name in result.wrt:
        index = result.index_of(name)
        listed = found.get(index, [])
        gradient = gradients[name]
        with np.errstate(all="ignore"):  # inf - inf is NaN, as it should be
            unlisted = gradient - sum((p.contribution for p in listed), np.zeros_like(gradient))
        report.append(InputPaths(name, counts[index], listed, gradient, unlisted, searched_all))
    return report
