"""The old home of gradcli.inputs: its names, re-exported while code moves over."""

from gradcli.errors import PointsProblem
from gradcli.inputs.lines import PAUSE, PIECE, Unreadable, read_lines
from gradcli.inputs.literals import (
    MAX_LIST_DEPTH,
    as_array,
    check_point,
    merge_points,
    parse_assignments,
    parse_seed,
    parse_value,
    value,
)
from gradcli.inputs.points import CHUNK_CHARS, PointChunk, PointsReader

__all__ = ["CHUNK_CHARS", "MAX_LIST_DEPTH", "PAUSE", "PIECE", "PointChunk", "PointsProblem", "PointsReader",
           "Unreadable", "as_array", "check_point", "merge_points", "parse_assignments", "parse_seed", "parse_value",
           "read_lines", "value"]
