"""Grids of bounds written to CSV, computed in parallel, resumable.

A sweep is a grid of parameter points (the product of the values given for each parameter) and
a module-level function that computes the rows of one point. :func:`run` computes the points on
:func:`dptheory.executor.run_tasks` (a local process pool by default, or a Dask cluster) and
writes one CSV row per (grid point, method), in grid order, with the :class:`~dptheory.results.Result`
fields. Two sweeps ready to run: :func:`shuffle_sweep` (every method of
:func:`dptheory.shuffle.methods.compare`) and :func:`rdp_sweep` (the shuffle model's RDP curves,
or their (epsilon, delta) conversion).

Determinism: every column but the last, ``seconds`` (the wall time of the method, for sizing a
cluster), is a function of the grid and the options only: a sweep gives the same content on one
process, on a pool and on Dask (:func:`read_rows` with ``timing=False`` reads the compared part).
Floats are written with ``repr`` (the shortest text that reads back to the same float).

Resume: rows are saved as points finish. If the output file exists, the points it holds
complete (a point's rows all carry their count in ``point_rows``) are kept and only the others
run; a partial last line (an interrupted write) is dropped. The finished file is the one an
uninterrupted run writes. A file with other columns, or with points outside the grid, is not a
partial run of this sweep: :class:`~dptheory.validate.DomainError`.

Grid values (:func:`parse_values`): ``0.5,1,2,4`` (a list), ``1e3..1e9`` (log-spaced, one point
per decade, both ends included), ``1e3..1e9:2`` (two points per decade); pieces may be mixed,
``1e3..1e5,3e5``.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import itertools
import json
import math
import pathlib
import time
from typing import Any, Callable, Sequence

from . import executor, validate
from .validate import DomainError

#: columns of every sweep after its grid columns, in order; ``seconds`` is the only one that
#: varies between runs of the same sweep
RESULT_COLUMNS = ("method", "quantity", "kind", "status", "applicable", "lower", "upper", "log_lower",
                  "log_upper", "source", "note", "params", "point_rows", "seconds")
TIMING_COLUMNS = ("seconds",)


# ------------------------------------------------------------------------------------ grammar
def parse_values(name: str, text, *, integer: bool = False, low: float | None = None,
                 low_open: bool = False, high: float | None = None, high_open: bool = False,
                 check: Callable[[str, Any], Any] | None = None) -> list:
    """The values of one grid parameter from ``text``: a comma-separated list whose pieces are
    numbers or log-spaced ranges ``a..b`` (one point per decade: a, 10a, 100a, ... up to b, and
    b itself) or ``a..b:m`` (m points per decade). Duplicates are dropped, order is kept.

    Raises DomainError naming ``name``, the text and the grammar for anything else (an empty
    list, a range with ``a <= 0`` or ``b < a``, a value outside ``[low, high]``, a non-integer
    where ``integer``). ``check``: the one validator of the quantity (``validate.eps0``), applied
    to each value instead of the range.
    """
    grammar = "a list like 0.5,1,2 or a log-spaced range a..b (a point per decade) or a..b:m (m per decade)"
    if not isinstance(text, str):
        text = ",".join(str(v) for v in (text if isinstance(text, (list, tuple)) else [text]))

    def logarithmic(a: float, b: float, per: str) -> list[float]:
        m = int(per) if per else 1
        if not (math.isfinite(a) and math.isfinite(b)) or a <= 0 or b < a or m < 1 or (per and float(per) != m):
            raise ValueError
        return _log_range(a, b, m)

    values = validate.value_list(name, text, logarithmic, grammar)
    out = []
    for v in values:
        if check is not None:
            v = check(name, v)
        elif integer:
            v = validate.integer(name, v, low=None if low is None else math.ceil(low),
                                 high=None if high is None else math.floor(high))
        else:
            v = validate.real(name, v, low=low, high=high, low_open=low_open, high_open=high_open)
        if v not in out:
            out.append(v)
    return out


def _log_range(a: float, b: float, per_decade: int) -> list[float]:
    """a * 10^(k/m) for k = 0, 1, ... while <= b (12 significant digits), then b."""
    out = []
    k = 0
    while True:
        v = float(f"{a * 10.0 ** (k / per_decade):.12g}")
        if v > b * (1 + 1e-12):
            break
        out.append(v)
        k += 1
        if k > 10000:
            raise ValueError
    if out[-1] < b * (1 - 1e-12):
        out.append(b)
    else:
        out[-1] = b
    return out


def _cell(value: Any) -> str:
    """A CSV cell, deterministically: floats by repr, None empty, dicts as sorted JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True, default=_json_default)
    if hasattr(value, "item") and not isinstance(value, str):  # numpy scalars
        return _cell(value.item())
    return str(value)


def _json_default(value):
    if hasattr(value, "item"):
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)


def result_row(item, quantity: str | None = None) -> dict:
    """The CSV fields of a Result, Curve point or Inapplicable (``params`` without its timing,
    which goes to ``seconds``)."""
    d = item.as_dict()
    params = dict(d.get("params") or {})
    seconds = params.pop("seconds", None)
    return {"method": d["method"], "quantity": d.get("quantity", quantity), "kind": d["kind"],
            "status": d["status"], "applicable": d.get("applicable", True), "lower": d.get("lower"),
            "upper": d.get("upper"), "log_lower": d.get("log_lower"), "log_upper": d.get("log_upper"),
            "source": d.get("source", ""), "note": d.get("note", ""), "params": params, "seconds": seconds}


# ----------------------------------------------------------------------------------- the grid
@dataclasses.dataclass(frozen=True)
class Sweep:
    """A grid ready to run: ``tasks`` (one dict per point, in grid order, holding the values of
    ``grid_columns`` and whatever else ``point`` needs) and ``point(task) -> list of row dicts``
    (a module-level function)."""

    name: str
    grid_columns: tuple[str, ...]
    tasks: tuple[dict, ...]
    point: Callable[[dict], list[dict]]

    @property
    def columns(self) -> tuple[str, ...]:
        return self.grid_columns + RESULT_COLUMNS

    def key(self, task: dict) -> tuple[str, ...]:
        return tuple(_cell(task[c]) for c in self.grid_columns)


def _grid(**axes) -> list[dict]:
    """The product of the axes (first axis outermost), as dicts."""
    names = list(axes)
    return [dict(zip(names, combo)) for combo in itertools.product(*(axes[k] for k in names))]


def _methods(text, known: Sequence[str]) -> tuple[str, ...] | None:
    if text is None:
        return None
    if isinstance(text, str):
        text = [m.strip() for m in text.split(",") if m.strip()]
    slugs = tuple(text)
    bad = [m for m in slugs if m not in known]
    if bad or not slugs:
        raise DomainError(f"methods = {','.join(bad) if bad else ''!r} is invalid: must be a comma-separated subset of "
                          f"{', '.join(known)}")
    return slugs


def shuffle_sweep(eps0, n, *, delta=None, epsilon=None, methods=None, randomizer: str = "general",
                  d=None, k=None, l=None, rtol: float = validate.EPSILON_RTOL) -> Sweep:
    """The grid eps0 x n x (delta or epsilon) of :func:`dptheory.shuffle.methods.compare`: for
    each point, a row per method (an inapplicable method's row says why). Each argument is a
    value, a list, or a grid text for :func:`parse_values`. With ``epsilon`` the rows give
    delta(epsilon), else epsilon(delta) (``delta`` defaults to 1e-8).

    Grid columns: ``randomizer, eps0, n, delta, epsilon`` (the one not given is empty; the
    ``quantity`` column says which one ``lower`` and ``upper`` bound).
    """
    from .shuffle import randomizers as R
    from .shuffle.methods import METHODS

    if delta is not None and epsilon is not None:
        raise DomainError("give delta or epsilon, not both (delta: epsilon(delta) rows; epsilon: delta(epsilon) rows)")
    e0s = parse_values("eps0", eps0, check=validate.eps0)
    ns = parse_values("n", n, integer=True, low=1)
    if epsilon is not None:
        targets = {"delta": [None], "epsilon": parse_values("epsilon", epsilon, low=0.0, high=validate.EPSILON_MAX)}
    else:
        targets = {"delta": parse_values("delta", 1e-8 if delta is None else delta, low=0.0, low_open=True,
                                         high=1.0, high_open=True), "epsilon": [None]}
    slugs = _methods(methods, list(METHODS))
    validate.real("rtol", rtol, low=0.0, low_open=True, high=1.0)
    if randomizer not in R.REGISTRY:
        raise DomainError(f"randomizer = {randomizer!r} is invalid: must be one of {', '.join(sorted(R.REGISTRY))}")
    extra = {"d": d, "k": k, "l": l}
    names = {}
    for e0 in e0s:  # the randomizer is built here once, so that bad arguments fail before any work
        names[e0] = _randomizer(randomizer, e0, extra).name
    tasks = []
    for point in _grid(eps0=e0s, n=ns, delta=targets["delta"], epsilon=targets["epsilon"]):
        tasks.append({"randomizer": names[point["eps0"]], **point, "spec": randomizer, "extra": extra,
                      "methods": slugs, "rtol": float(rtol)})
    return Sweep("shuffle", ("randomizer", "eps0", "n", "delta", "epsilon"), tuple(tasks), shuffle_point)


def _randomizer(spec: str, e0: float, extra: dict):
    from .shuffle.summary import build_randomizer

    return build_randomizer(spec, eps0=e0, **extra)


def shuffle_point(task: dict) -> list[dict]:
    """The rows of one point of :func:`shuffle_sweep` (a module-level function for the executor)."""
    from .shuffle.methods import compare

    rz = _randomizer(task["spec"], task["eps0"], task["extra"])
    methods = list(task["methods"]) if task["methods"] else None
    if task["epsilon"] is not None:
        results = compare(rz, task["n"], epsilon=task["epsilon"], methods=methods)
        quantity = "delta"
    else:
        results = compare(rz, task["n"], delta=task["delta"], methods=methods, rtol=task["rtol"])
        quantity = "epsilon"
    return [result_row(r, quantity) for r in results]


#: the orders of an RDP curve sweep when none are given (those of ``dptheory rdp``)
DEFAULT_ORDERS = "2,3,4,5,6,8,10,12,16,20,24,32,48,64"


def rdp_sweep(eps0, n, *, orders=None, delta=None, compositions=1, methods=None, rtol: float = validate.RENYI_RTOL) -> Sweep:
    """The grid eps0 x n x compositions (x delta) of the shuffle model's RDP methods
    (:mod:`dptheory.shuffle.rdp`): without ``delta``, a row per (method, order) of each
    method's curve (an inapplicable method gets one row saying why); with ``delta``, a row per
    method with its epsilon at the best of ``orders`` (Lemma 2.1), or, without ``orders``, at the
    best order of a search up to 1e4 (as ``dptheory rdp --delta``). Curves default to
    :data:`DEFAULT_ORDERS`.

    Grid columns: ``eps0, n, compositions, delta`` (``delta`` empty for curves).
    """
    from .shuffle.rdp import RDP_METHODS
    from .rdp import parse_orders

    e0s = parse_values("eps0", eps0, check=validate.eps0)
    ns = parse_values("n", n, integer=True, low=1)
    Ts = parse_values("compositions", compositions, integer=True, low=1)
    deltas = [None] if delta is None else parse_values("delta", delta, low=0.0, low_open=True, high=1.0,
                                                       high_open=True)
    if orders is None and delta is None:
        orders = DEFAULT_ORDERS
    if orders is None:
        o = None
    else:
        o = parse_orders(orders) if isinstance(orders, str) else validate.real_array("orders", orders, low=1.0,
                                                                                      low_open=True)
    slugs = _methods(methods, list(RDP_METHODS)) or tuple(RDP_METHODS)
    validate.real("rtol", rtol, low=0.0, low_open=True, high=1.0)
    tasks = [{**point, "orders": None if o is None else tuple(float(v) for v in o), "methods": slugs,
              "rtol": float(rtol)}
             for point in _grid(eps0=e0s, n=ns, compositions=Ts, delta=deltas)]
    return Sweep("rdp", ("eps0", "n", "compositions", "delta"), tuple(tasks), rdp_point)


def rdp_point(task: dict) -> list[dict]:
    """The rows of one point of :func:`rdp_sweep`."""
    import numpy as np

    from .results import Curve
    from .shuffle import rdp as shuffle_rdp

    rows = []
    orders = None if task["orders"] is None else np.asarray(task["orders"], dtype=float)
    for slug in task["methods"]:
        start = time.perf_counter()
        if task["delta"] is not None:
            out = [shuffle_rdp.epsilon(slug, task["eps0"], task["n"], task["delta"], compositions=task["compositions"],
                                       orders=orders, rtol=task["rtol"])]
            quantity = "epsilon"
        else:
            c = shuffle_rdp.rdp_curve(slug, task["eps0"], task["n"], orders, rtol=task["rtol"],
                                      compositions=task["compositions"])
            out = list(c) if isinstance(c, Curve) else [c]
            quantity = "rdp"
        seconds = time.perf_counter() - start
        for item in out:
            row = result_row(item, quantity)
            row["seconds"] = seconds / len(out)
            rows.append(row)
    return rows


# --------------------------------------------------------------------------------- the output
@dataclasses.dataclass(frozen=True)
class SweepRun:
    """What :func:`run` did: the file, the points of the grid, how many were already in the
    file (resumed) and how many were computed, and the rows written."""

    path: pathlib.Path
    points: int
    resumed: int
    computed: int
    rows: int


def _read_existing(path: pathlib.Path, sweep: Sweep) -> dict[tuple, list[list[str]]]:
    """The complete points already in ``path``: key -> its rows (cells), in file order."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise DomainError(f"output = '{path}' cannot be read to resume: {exc}") from None
    if not text.strip():
        return {}
    records = []
    reader = csv.reader(io.StringIO(text, newline=""))
    while True:
        try:
            records.append(next(reader))
        except StopIteration:
            break
        except csv.Error:  # cut inside a quoted field: the records before it are kept
            break
    if not text.endswith("\n") and records:
        records.pop()  # an interrupted write
    if not records:
        return {}
    if records[0] != list(sweep.columns):
        found = ",".join(records[0])
        raise DomainError(f"output = '{path}' exists and is not a partial run of this sweep (its header is "
                          f"{found[:120]!r}); remove it or choose another output file")
    width = len(sweep.columns)
    ng = len(sweep.grid_columns)
    count_at = sweep.columns.index("point_rows")
    groups: dict[tuple, list[list[str]]] = {}
    for record in records[1:]:
        if len(record) != width:
            continue
        groups.setdefault(tuple(record[:ng]), []).append(record)
    keys = {sweep.key(t) for t in sweep.tasks}
    outside = [k for k in groups if k not in keys]
    if outside:
        shown = dict(zip(sweep.grid_columns, outside[0]))
        raise DomainError(f"output = '{path}' holds rows of {len(outside)} points outside this grid (e.g. {shown}); "
                          "it is not a partial run of this sweep: remove it or choose another output file")
    complete = {}
    for key, rows in groups.items():
        counts = {r[count_at] for r in rows}
        if len(counts) == 1 and counts.pop() == str(len(rows)):
            complete[key] = rows
    return complete


def _records(sweep: Sweep, task: dict, rows: list[dict]) -> list[list[str]]:
    out = []
    for row in rows:
        full = {**{c: task[c] for c in sweep.grid_columns}, **row, "point_rows": len(rows)}
        out.append([_cell(full.get(c)) for c in sweep.columns])
    return out


def _csv_text(records: list[list[str]]) -> str:
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator="\n").writerows(records)
    return buffer.getvalue()


def run(sweep: Sweep, path, *, workers: int | None = None, scheduler: str | None = None,
        progress=False) -> SweepRun:
    """Compute the points of ``sweep`` that ``path`` does not hold yet and write the CSV (see
    the module docstring for its columns, order and resumption). Returns a :class:`SweepRun`.

    Raises DomainError before any work for an output that cannot be written or is not a partial
    run of this sweep, or for bad ``workers``/``scheduler``.
    """
    p = validate.output_file(path)
    if workers is not None:
        workers = validate.integer("workers", workers, low=1)
    done = _read_existing(p, sweep)
    keys = [sweep.key(t) for t in sweep.tasks]
    missing = [i for i, k in enumerate(keys) if k not in done]
    kept = [i for i, k in enumerate(keys) if k in done]
    records: dict[int, list[list[str]]] = {i: done[keys[i]] for i in kept}
    written: list[int] = []

    def start() -> None:
        """Write the header and the complete points already there (in grid order; partial rows
        and interrupted lines are dropped), once, when the first new point is done: a run that
        fails before (an unreachable scheduler) leaves ``path`` as it was, or absent."""
        if state["started"]:
            return
        state["started"] = True
        try:
            with open(p, "w", encoding="utf-8", newline="") as f:
                f.write(_csv_text([list(sweep.columns)] + [r for i in kept for r in records[i]]))
        except OSError as exc:
            raise DomainError(f"output = '{p}' is not writable: {exc}") from None
        written.extend(kept)

    pending: dict[int, list[list[str]]] = {}
    order = iter(missing)
    state = {"next": next(order, None), "started": False}

    def save(j: int, rows: list[dict]) -> None:
        start()
        i = missing[j]
        pending[i] = _records(sweep, sweep.tasks[i], rows)
        chunk = []
        while state["next"] is not None and state["next"] in pending:
            k = state["next"]
            records[k] = pending.pop(k)
            chunk.extend(records[k])
            written.append(k)
            state["next"] = next(order, None)
        if chunk:
            with open(p, "a", encoding="utf-8", newline="") as f:
                f.write(_csv_text(chunk))

    executor.run_tasks(sweep.point, [sweep.tasks[i] for i in missing], workers=workers, scheduler=scheduler,
                       progress=progress, on_result=save)
    start()  # nothing was missing: the file is rewritten with the complete points only
    if written != sorted(written):
        # resumed points were not a prefix of the grid: write the whole file in grid order
        with open(p, "w", encoding="utf-8", newline="") as f:
            f.write(_csv_text([list(sweep.columns)] + [r for i in range(len(keys)) for r in records[i]]))
    return SweepRun(p, len(keys), len(kept), len(missing), sum(len(v) for v in records.values()))


def read_rows(path, *, timing: bool = True) -> list[dict]:
    """The rows of a sweep's CSV as dicts of strings; ``timing=False`` drops the columns that
    vary between runs (:data:`TIMING_COLUMNS`), leaving the deterministic content."""
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    if not timing:
        for row in rows:
            for c in TIMING_COLUMNS:
                row.pop(c, None)
    return rows
