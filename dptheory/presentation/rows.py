"""Table rows of results and curves, and the answer lines a practitioner came for.

The rows are read through the objects' ``as_dict`` (the one serialised form of a
:class:`~dptheory.results.Result`, :class:`~dptheory.results.Curve` or
:class:`~dptheory.results.Inapplicable`); their numbers are :class:`~.cells.Number` cells that
know the direction they are rounded in (a lower end down, an upper end up), so that the terminal,
Markdown and LaTeX each format them their own way.
"""

from __future__ import annotations

import textwrap

from typing import Iterable, Sequence

from .cells import Missing, Number
from .numbers import fmt_bound, fmt_positive

_DIRECTION = {"upper": "up", "lower": "down"}


def _seconds(params: dict) -> str | None:
    s = params.get("seconds") if params else None
    return None if s is None else f"{s:.2g}"


def result_rows(items: Iterable, *, lower_key: str = "lower", upper_key: str = "upper") -> list[dict]:
    """Table rows of results, curves (one row per point of the grid, the axis as a column) and
    inapplicable records: method, kind, status, note, source, the interval's ends as
    :class:`~.cells.Number` cells (lower end rounded down, upper end up; a delta below the float
    range shown from its logarithm) and the seconds; a method that does not apply has
    :class:`~.cells.Missing` ends with the reason, which is also its note."""
    rows = []
    for item in items:
        d = item.as_dict()
        base = {"method": d["method"], "kind": d["kind"], "status": d["status"], "note": d.get("note") or "",
                "source": d.get("source", "")}
        if not d.get("applicable", True):
            reason = Missing(d.get("note", ""))
            rows.append({**base, lower_key: reason, upper_key: reason})
            continue
        if "axis" in d:  # a Curve
            axis = d["axis"]
            for x, lo, hi in zip(d[axis], d["lower"], d["upper"]):
                rows.append({**base, axis: float(x), lower_key: Number(lo, "down"), upper_key: Number(hi, "up")})
            continue
        rows.append({**base,
                     lower_key: Number(d["lower"], "down", d.get("log_lower")),
                     upper_key: Number(d["upper"], "up", d.get("log_upper")),
                     "seconds": _seconds(d.get("params", {}))})
    return rows


def result_row(res, *, lower_key: str = "lower", upper_key: str = "upper") -> dict:
    """The table row of one result or inapplicable record (see :func:`result_rows`)."""
    return result_rows([res], lower_key=lower_key, upper_key=upper_key)[0]


def conservative(item) -> Number | Missing:
    """The end of a result or curve point its kind calls for: the upper end of an upper bound
    (rounded up), the lower end of a lower bound (rounded down), the midpoint of an exact value or
    an approximation (to nearest)."""
    d = item.as_dict()
    if not d.get("applicable", True):
        return Missing(d.get("note", ""))
    kind = d["kind"]
    if kind == "upper":
        return Number(d["upper"], "up", d.get("log_upper"))
    if kind == "lower":
        return Number(d["lower"], "down", d.get("log_lower"))
    return Number(0.5 * (d["lower"] + d["upper"]))


def curve_rows(curves, orders: Sequence[float]) -> tuple[list[dict], list[str]]:
    """Rows (one per order) and columns (``order``, then one per curve's method) of RDP curves:
    each value the end the method's kind calls for (an upper bound rounded up, a lower bound
    down, an approximation to nearest). Inapplicable records have no column."""
    found = [c for c in curves if c.as_dict().get("applicable", True)]
    values = {}
    for c in found:
        direction = _DIRECTION.get(str(c.kind))
        values[c.method] = {float(x): Number(float(v), direction) for x, v in zip(c.grid.tolist(), c.value.tolist())}
    rows = [{"order": float(o), **{m: v.get(float(o)) for m, v in values.items()}} for o in orders]
    return rows, ["order"] + [c.method for c in found]


def epsilon_rows(results) -> list[dict]:
    """Rows of RDP -> (epsilon, delta) conversions: method, kind, status, the epsilon's upper end
    (rounded up) and the order it was attained at; a conversion that does not apply has a
    :class:`~.cells.Missing` epsilon with the reason."""
    out = []
    for r in results:
        d = r.as_dict()
        row = {"method": d["method"], "kind": d["kind"], "status": d["status"]}
        if not d["applicable"]:
            out.append({**row, "epsilon": Missing(d.get("note", "")), "order": None})
        else:
            out.append({**row, "epsilon": Number(d["upper"], "up"), "order": d["params"]["order"]})
    return out


def answer(summary, quantity: str | None = None) -> list[str]:
    """The lines a practitioner came for: the tightest proven upper bound, the best proven lower
    bound (an exact value is both) and the gap between them (a percentage, or for ends far apart
    the factor, from its logarithm), as plain text.

    ``summary``: any object with ``upper`` and ``lower`` results (or None), ``log_gap`` (log of
    upper end over lower end, or None), ``gap`` (that ratio minus 1 where it is a float) and
    ``gap_ratio`` (the ratio, inf beyond the float range), and ``quantity`` unless given."""
    return [line for line, _ in answer_parts(summary, quantity)]


def answer_parts(summary, quantity: str | None = None) -> list[tuple[str, dict]]:
    """:func:`answer`'s lines, each with its parts for other renderers (LaTeX): ``relation``
    ("<=", ">="), ``value`` (the formatted end), ``method``, ``kind``, ``status``, or ``gap``
    (a percentage or a factor, formatted) with ``gap_unit`` ("%" or "times")."""
    quantity = quantity or summary.quantity
    upper, lower = summary.upper, summary.lower
    out: list[tuple[str, dict]] = []
    for relation, res, end, direction in (("<=", upper, "upper", "up"), (">=", lower, "lower", "down")):
        if res is None:
            out.append((f"  no proven {end} bound applies here", {"missing": end}))
            continue
        shown = fmt_positive(getattr(res, end), getattr(res, "log_" + end), direction)
        out.append((f"  {quantity} {relation} {shown}   {res.method} ({res.kind}, {res.status})",
                    {"quantity": quantity, "relation": relation, "value": shown, "method": res.method,
                     "kind": str(res.kind), "status": str(res.status)}))
        attained = (res.params or {}).get("attained_by")
        if attained and relation == ">=":
            for k, piece in enumerate(textwrap.wrap(f"attained by {attained}", width=76)):
                out.append(("    " + piece, {"attained_by": attained} if k == 0 else {"continued": True}))
    log_ratio, ratio_minus_1 = summary.log_gap, summary.gap
    if log_ratio is not None:
        if ratio_minus_1 is not None and ratio_minus_1 < 100:
            shown = fmt_bound(100 * ratio_minus_1, "up")
            out.append((f"  gap: the upper bound is {shown}% above the lower bound", {"gap": shown, "gap_unit": "%"}))
        else:
            factor = fmt_positive(summary.gap_ratio, log_ratio, "up")
            out.append((f"  gap: the upper bound is {factor} times the lower bound",
                        {"gap": factor, "gap_unit": "times"}))
    elif upper is not None and lower is not None:
        out.append(("  gap: not stated (the lower bound is 0)", {"gap": None}))
    return out
