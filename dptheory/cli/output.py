"""Plain-text tables and JSON for the command line.

One formatter serves every result: :func:`result_rows` turns :class:`~dptheory.results.Result`,
:class:`~dptheory.results.Curve` and :class:`~dptheory.results.Inapplicable` into table rows,
and :func:`emit_json` prints anything through the objects' own ``as_dict``. Numbers shown to a
person are rounded outwards: the upper end of an interval is rounded up and the lower end down
(:func:`fmt_bound`), so that a printed upper bound is still an upper bound; a positive quantity
below the float range is printed from its logarithm (:func:`fmt_positive`), never as 0.
Tables fit :data:`WIDTH` columns: the last column (a note or a source) wraps.
"""

from __future__ import annotations

import decimal
import json
import math
import sys
import textwrap
from typing import Any, Iterable, Sequence

#: the terminal width the tables and notes are laid out for
WIDTH = 80
#: significant digits shown
DIGITS = 6

_UP, _DOWN = "up", "down"


def fmt(value: Any) -> str:
    """A cell: None as "-", floats with 6 significant digits (to nearest), anything else as str."""
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
            return f"{value:.{DIGITS}g}"
        return f"{value:.{DIGITS - 1}e}"
    return str(value)


_fmt = fmt  # the name used before


def fmt_bound(value: float | None, direction: str | None = None) -> str:
    """``value`` with :data:`DIGITS` significant digits, rounded towards ``direction``
    (``"up"`` for the upper end of an interval, ``"down"`` for the lower end, None to nearest).

    The decimal digits are those of the exact binary value, so an upper end printed is never
    below the certified one.
    """
    if value is None or direction is None or not math.isfinite(value) or value == 0:
        return fmt(None if value is None else float(value))
    exact = decimal.Decimal(float(value))
    mode = decimal.ROUND_CEILING if direction == _UP else decimal.ROUND_FLOOR
    quantum = decimal.Decimal(1).scaleb(exact.adjusted() - DIGITS + 1)
    rounded = exact.quantize(quantum, rounding=mode)
    if 1e-4 <= abs(rounded) < 1e5:
        text = format(rounded, "f")
        return text.rstrip("0").rstrip(".") if "." in text else text
    mantissa, _, exponent = format(rounded, f".{DIGITS - 1}e").partition("e")
    return f"{mantissa}e{int(exponent):+03d}"


def fmt_positive(value: float | None, log_value: float | None = None, direction: str | None = None) -> str:
    """A non-negative quantity for a person. Below the float range (or rounded to a subnormal),
    or above it (``inf``), it is shown from its logarithm in scientific notation, never as 0 when it is positive; the
    mantissa is rounded towards ``direction`` like :func:`fmt_bound`."""
    if value is None:
        return "-"
    if log_value is not None and math.isfinite(log_value) and (value == 0 or value < 1e-300 or value == math.inf):
        return _from_log(log_value, direction)
    if log_value is not None and log_value == -math.inf:
        return "0"
    return fmt_bound(float(value), direction)


def _from_log(log_value: float, direction: str | None) -> str:
    """exp(log_value) in scientific notation, computed from the logarithm."""
    log10 = log_value / math.log(10.0)
    exponent = math.floor(log10)
    mantissa = 10 ** (log10 - exponent)
    # the conversion to base 10 errs by a few ulps of |log10| (at most ~1e-13 relative here)
    slack = 1e-12 * max(1.0, abs(log10))
    scale = 10 ** (DIGITS - 1)
    if direction == _UP:
        mantissa = math.ceil(mantissa * (1 + slack) * scale) / scale
    elif direction == _DOWN:
        mantissa = math.floor(mantissa * (1 - slack) * scale) / scale
    if mantissa >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    if mantissa < 1:
        mantissa, exponent = mantissa * 10, exponent - 1
    return f"{mantissa:.{DIGITS - 1}f}e{exponent:+03d}"


# ---------------------------------------------------------------------------------- results
def _seconds(params: dict) -> str | None:
    s = params.get("seconds") if params else None
    return None if s is None else f"{s:.2g}"


def result_rows(items: Iterable, *, lower_key: str = "lower", upper_key: str = "upper") -> list[dict]:
    """Table rows of :class:`Result`, :class:`Curve` (one row per point of its grid, with the
    axis as a column) and :class:`Inapplicable` objects, from their ``as_dict``.

    Lower ends are rounded down and upper ends up for display; a method that does not apply
    shows "n/a" and its reason in the note.
    """
    rows = []
    for item in items:
        d = item.as_dict()
        base = {"method": d["method"], "kind": d["kind"], "status": d["status"], "note": d.get("note") or "",
                "source": d.get("source", "")}
        if not d.get("applicable", True):
            rows.append({**base, lower_key: "n/a", upper_key: "n/a"})
            continue
        if "axis" in d:  # a Curve
            axis = d["axis"]
            for x, lo, hi in zip(d[axis], d["lower"], d["upper"]):
                rows.append({**base, axis: fmt(float(x)), lower_key: fmt_bound(lo, _DOWN),
                             upper_key: fmt_bound(hi, _UP)})
            continue
        rows.append({**base,
                     lower_key: fmt_positive(d["lower"], d.get("log_lower"), _DOWN),
                     upper_key: fmt_positive(d["upper"], d.get("log_upper"), _UP),
                     "seconds": _seconds(d.get("params", {}))})
    return rows


def result_row(res, *, lower_key: str = "lower", upper_key: str = "upper") -> dict:
    """The table row of one :class:`Result` or :class:`Inapplicable` (see :func:`result_rows`)."""
    return result_rows([res], lower_key=lower_key, upper_key=upper_key)[0]


def notes(rows: Sequence[dict], key: str, title: str, out=None, width: int = WIDTH) -> None:
    """Print ``title`` and, per distinct ``key`` text of the rows, "  methods: text" wrapped to
    ``width`` (methods that share a text share a line)."""
    out = out or sys.stdout
    grouped: dict[str, list[str]] = {}
    for r in rows:
        if r.get(key):
            grouped.setdefault(r[key], []).append(r["method"])
    if not grouped:
        return
    print(f"\n{title}", file=out)
    for text, methods in grouped.items():
        print(textwrap.fill(f"{', '.join(methods)}: {text}", width=width, initial_indent="  ",
                            subsequent_indent="      ", break_on_hyphens=False, break_long_words=False), file=out)


# ------------------------------------------------------------------------------------ tables
def table_width(rows: Sequence[dict], columns: Sequence[str]) -> int:
    """The width :func:`table` gives these rows and columns when nothing wraps."""
    widths = [max([len(c)] + [len(fmt(r.get(c))) for r in rows]) for c in columns]
    return sum(widths) + 2 * (len(columns) - 1)


def table(rows: Sequence[dict], columns: Sequence[str], out=None, width: int = WIDTH) -> None:
    """Print ``rows`` as an aligned table with the given columns. When the table is wider than
    ``width``, the last column (a note or a source) wraps: in its column if at least 30
    characters remain, else on indented lines below each row."""
    out = out or sys.stdout
    cells = [[fmt(r.get(c)) for c in columns] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(columns)]
    lead = sum(w + 2 for w in widths[:-1])
    below = False
    if lead + widths[-1] > width:
        if width - lead >= 30:
            widths[-1] = width - lead
        else:
            below = True
    shown = list(columns[:-1]) if below else list(columns)
    print("  ".join(c.ljust(w) for c, w in zip(shown, widths)).rstrip(), file=out)
    print("  ".join("-" * w for w in widths[:len(shown)]), file=out)
    for row in cells:
        if below:
            print("  ".join(v.ljust(w) for v, w in zip(row[:-1], widths)).rstrip(), file=out)
            if row[-1] not in ("", "-"):
                print(textwrap.fill(row[-1], width=width, initial_indent="    ", subsequent_indent="    ",
                                    break_on_hyphens=False), file=out)
            continue
        pieces = textwrap.wrap(row[-1], width=widths[-1], break_on_hyphens=False) or [""]
        print("  ".join(v.ljust(w) for v, w in zip(row[:-1] + [pieces[0]], widths)).rstrip(), file=out)
        for more in pieces[1:]:
            print((" " * lead + more).rstrip(), file=out)


def _jsonable(value: Any) -> Any:
    if hasattr(value, "as_dict"):
        return _jsonable(value.as_dict())
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return _jsonable(value.tolist())
    if hasattr(value, "__float__"):  # mpmath numbers
        return _jsonable(float(value))
    return value


def emit_json(data: Any, out=None) -> None:
    """Print ``data`` as JSON; results, curves and rows go through their own ``as_dict``."""
    out = out or sys.stdout
    json.dump(_jsonable(data), out, indent=2)
    out.write("\n")


def lines(texts: Iterable[str], out=None) -> None:
    out = out or sys.stdout
    for t in texts:
        print(t, file=out)


def wide_table(rows: Sequence[dict], columns: Sequence[str], *, fixed: int = 1, out=None, width: int = WIDTH) -> None:
    """Print a table too wide for ``width`` columns as several blocks of columns, one under the
    other, each repeating the first ``fixed`` columns (the row labels), as R prints a wide data
    frame. A table that fits is printed as one block by :func:`table`."""
    out = out or sys.stdout
    cells = {c: [fmt(r.get(c)) for r in rows] for c in columns}
    size = {c: max([len(c)] + [len(v) for v in cells[c]]) for c in columns}
    lead = list(columns[:fixed])
    used = sum(size[c] + 2 for c in lead)
    blocks, current = [], []
    for c in columns[fixed:]:
        if current and used + sum(size[x] + 2 for x in current) + size[c] > width:
            blocks.append(current)
            current = []
        current.append(c)
    blocks.append(current)
    for i, block in enumerate(blocks):
        if i:
            print(file=out)
        cols = lead + block
        print("  ".join(c.ljust(size[c]) for c in cols).rstrip(), file=out)
        print("  ".join("-" * size[c] for c in cols), file=out)
        for j in range(len(rows)):
            print("  ".join(cells[c][j].ljust(size[c]) for c in cols).rstrip(), file=out)


def wrapped(text: str, out=None, width: int = WIDTH, indent: str = "  ", subsequent: str = "      ") -> None:
    """Print ``text`` wrapped to ``width`` columns (long sources and notes)."""
    out = out or sys.stdout
    print(textwrap.fill(text, width=width, initial_indent=indent, subsequent_indent=subsequent,
                        break_on_hyphens=False, break_long_words=False), file=out)


def latex_table(rows: Sequence[dict], columns: Sequence[str], *, headers: Sequence[str] | None = None,
                caption: str | None = None, label: str | None = None, floating: bool = True) -> str:
    """The rows as a booktabs table (:func:`dptheory.latex.booktabs`): cells formatted as in
    :func:`table` (numbers already rounded outwards stay as they are), text escaped, numbers
    typeset as :math:`1.2\\times 10^{-8}`. ``headers`` are LaTeX (default: the column names,
    escaped); ``caption`` is LaTeX."""
    from .. import latex

    header = list(headers) if headers is not None else [latex.escape(c) for c in columns]
    body = []
    for r in rows:
        cells = [fmt(r.get(c)) for c in columns]
        body.append([c if latex.is_number(c) else latex.escape(c) for c in cells])
    return latex.booktabs(header, body, caption=caption, label=label, floating=floating)
