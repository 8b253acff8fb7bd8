"""Plain-text tables and JSON for the command line."""

from __future__ import annotations

import json
import math
import sys
from typing import Any, Iterable, Sequence


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if value == 0:
            return "0"
        if 1e-4 <= abs(value) < 1e5:
            return f"{value:.6g}"
        return f"{value:.5e}"
    return str(value)


def table(rows: Sequence[dict], columns: Sequence[str], out=None) -> None:
    """Print ``rows`` as an aligned table with the given columns."""
    out = out or sys.stdout
    cells = [[_fmt(r.get(c)) for c in columns] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(columns)]
    print("  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip(), file=out)
    print("  ".join("-" * w for w in widths), file=out)
    for row in cells:
        print("  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip(), file=out)


def _jsonable(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "item"):
        return _jsonable(value.item())
    return value


def emit_json(data: Any, out=None) -> None:
    out = out or sys.stdout
    json.dump(_jsonable(data), out, indent=2)
    out.write("\n")


def lines(texts: Iterable[str], out=None) -> None:
    out = out or sys.stdout
    for t in texts:
        print(t, file=out)
