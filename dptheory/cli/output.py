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


def fmt_positive(value: float | None, log_value: float | None = None) -> str:
    """A non-negative quantity for a person: below the float range (or rounded to a subnormal)
    it is shown from its logarithm in scientific notation, never as 0 when it is positive."""
    if value is None:
        return "-"
    if log_value is not None and math.isfinite(log_value) and (value == 0 or value < 1e-300):
        log10 = log_value / math.log(10.0)
        exponent = math.floor(log10)
        return f"{10 ** (log10 - exponent):.5f}e{exponent:+d}"
    if log_value is not None and log_value == -math.inf:
        return "0"
    return _fmt(float(value))


def result_row(res, *, lower_key: str = "lower", upper_key: str = "upper") -> dict:
    """One table row of a Result or Inapplicable (its as_dict, with printable ends)."""
    d = res.as_dict()
    if not d.get("applicable", True):
        return {"method": d["method"], "kind": d["kind"], "status": d["status"], lower_key: "n/a", upper_key: "n/a",
                "note": d["note"]}
    row = {"method": d["method"], "kind": d["kind"], "status": d["status"],
           lower_key: fmt_positive(d["lower"], d.get("log_lower")),
           upper_key: fmt_positive(d["upper"], d.get("log_upper")),
           "seconds": d.get("params", {}).get("seconds"), "note": d["note"]}
    return row


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
