"""The one JSON form of every output: results, curves and reports through their own ``as_dict``;
floats that JSON cannot hold (nan, inf) as null or the strings "inf" / "-inf"; numpy and mpmath
numbers as floats."""

from __future__ import annotations

import json
import math
import sys
from typing import Any


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data (see the module docstring)."""
    if hasattr(value, "as_dict"):
        return jsonable(value.as_dict())
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return jsonable(value.tolist())
    if hasattr(value, "__float__"):  # mpmath numbers
        return jsonable(float(value))
    return value


def emit_json(data: Any, out=None) -> None:
    """Print ``data`` as JSON; results, curves and rows go through their own ``as_dict``."""
    out = out or sys.stdout
    json.dump(jsonable(data), out, indent=2)
    out.write("\n")
