"""Paths from the output back to each input, and what each contributes to the gradient.

A gradient is a sum over paths: every path from the output to an input multiplies the
local derivatives of the edges it crosses (for tensors, applies their VJPs in turn to the
seed), and the gradient is the sum of those contributions. `x*x` has two edges into `x`,
so paths are sequences of edges, and their number can grow exponentially with the tape.

- `count_paths` counts them exactly by dynamic programming (Python ints never overflow).
- For scalar programs, `best_paths` finds the K largest contributions in magnitude by
  k-best dynamic programming over the tape in O(edges * K log K), never listing the rest.
- For tensor programs, contributions are vectors; `enumerate_paths` walks them depth-first
  and keeps the K of largest norm.
Only the nodes from which a reported input can be reached are visited. The work of either
search is known before it starts (`search_steps`) and bounded by GRADCLI_MAX_PATH_STEPS: past
it, the inputs are searched one at a time, the cheapest first, while the limit lasts: a k-best
search that does not fit lists nothing, a walk stops where its share of the limit ends. The
path counts and the gradient stay exact, and what the listed paths leave of the gradient is
reported as `unlisted` either way.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from gradcli.derivatives import GradResult
from gradcli.engine import local_derivatives
from gradcli.errors import LimitProblem, Limits
from gradcli.ops import call_vjp
from gradcli.tape import APPLY

Array = np.ndarray

DEFAULT_MAX_PATHS = 16
MAX_PATHS = 10_000  # --max-paths at most: nobody reads more, and the k-best search's memory grows with it
ELEMENTS_PER_STEP = 1_000  # a tensor walk's step through a value of n elements counts 1 + n // 1000 steps


@dataclass(frozen=True)
class Path:
    nodes: tuple[int, ...]  # tape indices, from the root down to the input
    positions: tuple[int, ...]  # which argument each edge enters (x*x has edges 0 and 1 into x)
    factors: tuple[float, ...] | None  # the local derivative of each edge (scalar programs)
    contribution: Array
    # A path of scalars into one element of a tensor input (x[0]): that element; its factors are
    # the path's scalar local derivatives, the last one d node / d x[element]
    element: tuple[int, ...] | None = None
    # A tensor path: each edge's local Jacobian by its structure (jacobians.LocalJacobian), whose
    # transposes the path applies in turn to the seed
    jacobians: tuple[Any, ...] | None = None


@dataclass(frozen=True)
class InputPaths:
    name: str
    total_paths: int
    listed: list[Path]  # the largest contributions, largest first
    gradient: Array
    unlisted: Array  # gradient - sum of the listed contributions
    searched_all: bool  # False when the search stopped at GRADCLI_MAX_PATH_STEPS


def check_max_paths(k: int) -> None:
    if k > MAX_PATHS:
        raise LimitProblem(f"--max-paths can be at most {MAX_PATHS:,}, not {k:,}")


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


def reaching(result: GradResult, targets: set[int]) -> list[bool]:
    """Which nodes a path to one of `targets` can go through: the targets and what uses them."""
    nodes = result.tape.nodes
    reaches = [False] * len(nodes)
    for node in nodes[: max(result.roots, default=-1) + 1]:
        if node.index in targets and node.requires_grad:
            reaches[node.index] = True
        elif node.kind == APPLY and node.requires_grad:
            reaches[node.index] = any(reaches[a] for a in node.args)
    return reaches


def search_steps(result: GradResult, k: int, counts: list[int], reaches: list[bool], scalar: bool) -> int:
    """The steps the search will take: for k-best, the candidate paths it ranks (at most k per edge);
    for the walk, one per path through each node, more for large values."""
    nodes = result.tape.nodes
    steps = 0
    for index, count in enumerate(counts):
        if not count or not reaches[index]:
            continue
        if scalar:
            if nodes[index].kind == APPLY:
                steps += min(k, count) * sum(reaches[a] for a in nodes[index].args)
        else:
            steps += count * (1 + result.values[index].size // ELEMENTS_PER_STEP)
    return steps


def best_paths(result: GradResult, k: int, counts: list[int], targets: set[int],
               reaches: list[bool] | None = None) -> dict[int, list[Path]]:
    """The k paths of largest |contribution| into each target, for a scalar program."""
    nodes = result.tape.nodes
    values = result.values
    if reaches is None:
        reaches = reaching(result, targets)
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
            if factor is None or not reaches[arg]:
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
    result: GradResult, k: int, targets: set[int], limit: int | None = None, reaches: list[bool] | None = None
) -> tuple[dict[int, list[Path]], bool]:
    """Walk paths depth-first, pushing the seed through each edge's VJP; keep the k largest.

    Stops after `limit` steps (see search_steps). Returns the kept paths per target, and
    whether every path was walked.
    """
    nodes = result.tape.nodes
    values = result.values
    if reaches is None:
        reaches = reaching(result, targets)
    budget = math.inf if limit is None else limit
    kept: dict[int, list[tuple[float, int, tuple[object, ...], Array]]] = {}
    walked = 0
    # A path is a linked list, (its path to the parent, node, position): a push costs the same
    # however long the path, and only the kept ones are written out.
    stack: list[tuple[int, Array, tuple[object, ...]]] = [
        (root, seed, ((), root, -1)) for root, seed in zip(result.roots, result.seeds, strict=True) if reaches[root]
    ]
    complete = True
    with np.errstate(all="ignore"):
        while stack:
            index, cotangent, link = stack.pop()
            node = nodes[index]
            budget -= 1 + values[index].size // ELEMENTS_PER_STEP
            if budget < 0:
                complete = False
                break
            if index in targets:
                walked += 1
                heap = kept.setdefault(index, [])
                item = (float(np.linalg.norm(cotangent)), -walked, link, cotangent)
                if len(heap) < k:
                    heapq.heappush(heap, item)
                else:
                    heapq.heappushpop(heap, item)
            if node.kind != APPLY:
                continue
            assert node.op is not None
            wanted = [reaches[a] for a in node.args]
            if not any(wanted):
                continue
            cotangents = call_vjp(node.op, cotangent, values[index], [values[a] for a in node.args], node.params,
                                  [0] * len(node.args), wanted)
            for position in reversed(range(len(node.args))):
                c = cotangents[position]
                if c is not None:
                    stack.append((node.args[position], c, (link, node.args[position], position)))
    found = {i: [_written_out(link, c) for _, _, link, c in sorted(heap, key=lambda item: item[:2], reverse=True)]
             for i, heap in kept.items()}
    return found, complete


def _written_out(link: tuple[object, ...], contribution: Array) -> Path:
    chain: list[int] = []
    positions: list[int] = []
    while link:
        link, index, position = link  # type: ignore[assignment]
        chain.append(index)  # type: ignore[arg-type]
        positions.append(position)  # type: ignore[arg-type]
    chain.reverse()
    positions.reverse()
    return Path(tuple(chain), tuple(positions[1:]), None, contribution)


def _search(result: GradResult, k: int, counts: list[int], targets: set[int], scalar: bool
            ) -> tuple[dict[int, list[Path]], set[int]]:
    """The paths found per target, and the targets whose search was complete.

    All targets at once where the step limit allows it; else one at a time, the cheapest
    first, so that a target with few paths is not starved by one with too many.
    """
    budget = Limits.get("path_steps")

    def search(chosen: set[int], reaches: list[bool], limit: int | None) -> tuple[dict[int, list[Path]], bool]:
        if scalar:
            return best_paths(result, k, counts, chosen, reaches), True
        return enumerate_paths(result, k, chosen, limit, reaches)

    reaches = reaching(result, targets)
    if search_steps(result, k, counts, reaches, scalar) <= budget:
        return search(targets, reaches, None)[0], set(targets)
    found: dict[int, list[Path]] = {}
    complete: set[int] = set()
    alone = [(reaching(result, {target}), target) for target in sorted(targets)]
    costs = sorted((search_steps(result, k, counts, reach, scalar), target, reach) for reach, target in alone)
    for position, (steps, target, reach) in enumerate(costs):
        if steps <= budget:
            found.update(search({target}, reach, None)[0])
            complete.add(target)
            budget -= steps
        elif not scalar:  # a walk can stop anywhere: it takes its share of what is left
            share = budget // (len(costs) - position)
            found.update(search({target}, reach, share)[0])
            budget -= share
    return found, complete


def paths(result: GradResult, k: int = DEFAULT_MAX_PATHS) -> list[InputPaths]:
    """Per reported input: its path count, its k largest paths, and what they leave out."""
    counts = count_paths(result)
    targets = {result.index_of(name) for name in result.wrt}
    found, complete = _search(result, k, counts, targets, _is_scalar_program(result, counts))
    gradients = result.grad
    report = []
    local: dict[int, list[Any]] = {}
    for name in result.wrt:
        index = result.index_of(name)
        listed = [_through_one_element(result, path, local) for path in found.get(index, [])]
        gradient = gradients[name]
        with np.errstate(all="ignore"):  # inf - inf is NaN, as it should be
            unlisted = gradient - sum((p.contribution for p in listed), np.zeros_like(gradient))
        report.append(InputPaths(name, counts[index], listed, gradient, unlisted, index in complete))
    return report


def _through_one_element(result: GradResult, path: Path, local: dict[int, list[Any]]) -> Path:
    """A tensor path whose nodes are all numbers but the input, entered through one of its elements
    (x[0] * x[1]): the scalar path into that element, with its scalar factors. Any other path as it is."""
    values = result.values
    if path.factors is not None:
        return path
    if any(values[i].size != 1 for i in path.nodes[:-1]):
        return _with_jacobians(result, path)
    factors = []
    for parent, position in zip(path.nodes[:-1], path.positions, strict=True):
        if parent not in local:
            local[parent] = local_derivatives(result.tape, values, parent)
        factors.append(local[parent][position])
    last = np.asarray(factors[-1], dtype=float) if factors else np.zeros(0)
    touched = np.flatnonzero(last)
    if last.size < 2 or len(touched) != 1:
        return _with_jacobians(result, path)
    element = tuple(int(i) for i in np.unravel_index(int(touched[0]), last.shape))
    scalars = (*(float(np.asarray(f).reshape(())) for f in factors[:-1]), float(last[element]))
    return Path(path.nodes, path.positions, scalars, path.contribution, element)


def _with_jacobians(result: GradResult, path: Path) -> Path:
    """A tensor path with each edge's local Jacobian (as explain shows them)."""
    from dataclasses import replace

    from gradcli.jacobians import local_jacobian

    found = tuple(local_jacobian(result.tape, result.values, parent, position)
                  for parent, position in zip(path.nodes[:-1], path.positions, strict=True))
    return replace(path, jacobians=found)
