"""The per-path view of a gradient: each path's chain, local derivatives and contribution."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from gradcli.derivatives import GradResult
from gradcli.errors import Limits
from gradcli.paths import InputPaths, Path
from gradcli.render.numbers import human, human_line, to_json

if TYPE_CHECKING:
    from gradcli.session import PathNames


def _named(reports: list[InputPaths], result: GradResult, names: PathNames | None) -> PathNames:
    """The names the session worked out (a library caller that has none asks the session for them)."""
    if names is not None:
        return names
    from gradcli.session import path_names

    return path_names(result, reports)


def chain_text(names: PathNames, path: Path) -> str:
    """`[5] MulBackward0 -> [3] LogBackward0 -> [2] MulBackward0 -> x2`; `x*x` edges say which side."""
    parts = [names.nodes[path.nodes[0]].text]
    for parent, child, position in zip(path.nodes[:-1], path.nodes[1:], path.positions, strict=True):
        arrow = f"-(arg {position})->" if (parent, child) in names.repeated else "->"
        parts.append(f"{arrow} {names.nodes[child].text}")
    if path.element is not None:  # the path enters one element of the input
        parts[-1] += "".join(f"[{i}]" for i in path.element)
    return " ".join(parts)


def _factors_text(path: Path) -> str:
    if path.factors is None and path.jacobians:  # Jᵀ of each edge, applied in turn to the seed
        from gradcli.render.graph import edge_label

        return " · ".join(edge_label(j).removeprefix("J = ") for j in path.jacobians) + "  (Jᵀ·v along the path)"
    if path.factors is None:
        return "(vector-Jacobian products)"
    return " × ".join(human_line(f) for f in path.factors) if path.factors else "1"


EXACT_DIGITS = 30  # counts up to this many digits are written out; larger ones as "about 1.23457e+4300"


def scientific(count: int) -> tuple[str, int]:
    """A positive whole number as '1.23457e+4300' (six significant digits) and its number of digits,
    without writing it out: Python refuses to past 4,300 digits, and it would be slow long before."""
    shift = max(0, count.bit_length() - 64)
    log10 = math.log10(count >> shift) + shift * math.log10(2)  # good to ~1e-9 for any count that fits
    exponent = math.floor(log10)
    if min(log10 - exponent, exponent + 1 - log10) < 1e-6:  # near a power of ten: decide exactly
        exponent = exponent - 1 if count < 10**exponent else exponent + 1 if count >= 10 ** (exponent + 1) else exponent
    mantissa = f"{10 ** (log10 - exponent):.5f}".rstrip("0").rstrip(".")
    if mantissa.startswith("10"):  # 9.999996 rounds up
        mantissa, exponent = "1", exponent + 1
    return f"{mantissa}e{exponent:+d}", exponent + 1


def _count_text(report: InputPaths) -> str:
    """`2 paths, all listed`, `1 path`, `about 3.1e+4305 paths (4,306 digits), the 16 largest listed`."""
    total, listed = report.total_paths, len(report.listed)
    if total == 0:
        return "no paths (the output does not depend on it)"
    if total.bit_length() * math.log10(2) < EXACT_DIGITS:
        count = f"{total:,} path{'s' if total != 1 else ''}"
    else:
        text, digits = scientific(total)
        count = f"about {text} paths ({digits:,} digits)"
    if listed == total:
        return count if total == 1 else f"{count}, all listed"
    return f"{count}, the {listed} largest listed" if listed else f"{count}, none listed"


def _json_count(count: int) -> int | str:
    """An exact integer where a double can hold it (jq and JavaScript read it, rounded past 2**53);
    past 2**1024 no JSON number reader can, and it is a string: '1.23457e+4300'."""
    return count if count.bit_length() <= 1024 else scientific(count)[0]


def show_paths(reports: list[InputPaths], result: GradResult, console: Any, names: PathNames | None = None) -> None:
    from rich.table import Table
    from rich.text import Text

    names = _named(reports, result, names)
    for report in reports:
        console.print(Text.assemble("\n", (f"paths into {report.name}", "bold"), f": {_count_text(report)}"))
        if not report.total_paths:
            console.print(f"  0 = {human_line(report.gradient)} = d/d{report.name}")
            continue
        table = Table(show_edge=False, header_style="bold")
        table.add_column("#", justify="right")
        table.add_column("path, from the output back")
        table.add_column("local derivatives")
        table.add_column("contribution", justify="right")
        for number, path in enumerate(report.listed, 1):
            table.add_row(str(number), chain_text(names, path), _factors_text(path), human(path.contribution))
        console.print(table)
        listed = " + ".join(human_line(p.contribution) for p in report.listed[:6])
        if len(report.listed) > 6:
            listed += " + ..."
        unlisted = "" if report.total_paths == len(report.listed) else f" + {human_line(report.unlisted)} (unlisted)"
        console.print(f"  {listed or '0'}{unlisted} = {human_line(report.gradient)} = d/d{report.name}")
        if not report.searched_all:
            console.print(Text.assemble("  ", ("note:", "yellow"), " the path search stopped at its limit of "
                                        f"{Limits.get('path_steps'):,} steps (raise it with "
                                        f"{Limits.variable('path_steps')}=N); the listed paths are the largest of "
                                        "those it found"))


def paths_document(reports: list[InputPaths], result: GradResult, names: PathNames | None = None) -> dict[str, Any]:
    names = _named(reports, result, names)
    return {
        report.name: {
            "total_paths": _json_count(report.total_paths),
            "listed": [
                {
                    "nodes": [names.nodes[i].label for i in path.nodes],
                    "ops": [names.nodes[i].op for i in path.nodes],
                    "positions": list(path.positions),
                    "factors": None if path.factors is None else [to_json(f) for f in path.factors],
                    **({} if path.element is None else {"element": list(path.element)}),
                    **({} if path.jacobians is None else {"jacobians": [{"kind": j.kind, "size": list(j.size)}
                                                                         for j in path.jacobians]}),
                    "contribution": to_json(path.contribution),
                }
                for path in report.listed
            ],
            "unlisted": to_json(report.unlisted),
            "searched_all": report.searched_all,
        }
        for report in reports
    }
