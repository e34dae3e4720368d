"""The JSON views: one object per result, keys as DESIGN.md section 1 fixes them."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from gradcli.render.numbers import point_document, to_json

if TYPE_CHECKING:
    from gradcli.derivatives import GradResult


def grad_document(result: GradResult) -> dict[str, Any]:
    value = result.value
    document: dict[str, Any] = {
        "expr": result.tape.source,
        "at": point_document(result.tape, result.point),
        "value": [to_json(v) for v in value] if isinstance(value, tuple) else to_json(value),
        "grad": {name: to_json(g) for name, g in result.grad.items()},
        "of": list(result.root_names),
    }
    if result.warnings:
        document["warnings"] = list(result.warnings)
    return document


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, allow_nan=False)
