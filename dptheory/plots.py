"""Figures of the papers, reproduced from the toolkit's own code (matplotlib: the ``plot`` extra).

A figure is registered once, by name (:func:`register`), with a function that computes its data
and the default values of its parameters; :func:`render` writes it to a PNG or PDF file (and,
from the same computation, its data as CSV or JSON: :func:`write_data`), and the command line
draws it with ``dptheory plot NAME [--out FILE] [--data FILE.csv] [--json] [key=value ...]``
(``dptheory plot --list`` names them all; ``dptheory plot --gallery DIR`` draws every one into
DIR/figures.md). The registrations are the last lines of this module (their functions are in
:mod:`dptheory.figures`); adding a figure is one more line there::

    register("tradeoff-curves", "trade-off curves of ...", "dptheory.figures.tradeoff:curves", eps0=1.0, n=1000)

A figure function takes the parameters as keywords and returns a :class:`Plot` (its panels, the
notes its caption adds: parameters chosen here, a disagreement with the paper) or just a list of
:class:`Panel`. A panel holds :class:`Series` (points with the method, kind and status of the
number they show), drawn in one style throughout: the line style tells the kind (upper bound
solid, lower bound dotted, exact thick, approximation dashed), the marker the status (proven
filled circle, unproven hollow triangle, refuted cross, not a bound none); one legend under the
panels names every curve and explains the styles, and the caption under it names the paper's
figure, the parameters and each curve's kind and status. A figure function may also return a
``matplotlib.figure.Figure`` it drew itself. It is named by ``"module:function"`` (imported when
the figure is drawn, so that listing the figures imports nothing heavy) or given as a callable.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import pathlib
from typing import Any, Callable, Sequence

from . import validate
from .presentation.cells import plain  # captions and printed text without mathtext
from .validate import DomainError

#: file types :func:`render` writes, by suffix
FORMATS = (".png", ".pdf")


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("plots need matplotlib: pip install 'dptheory[plot]'") from exc
    return plt


# ------------------------------------------------------------------------------- data model
@dataclasses.dataclass(frozen=True)
class Series:
    """One line of a panel: ``y`` over ``x`` for a method whose number is of ``kind``
    ("upper", "lower", "exact", "approximation") and proof ``status`` ("proven", "unproven",
    "refuted", "not a bound"); ``method`` names the method (the toolkit's slug, or the paper's
    result), the label by default. Non-finite points (a method that does not apply there) are
    left out of the line."""

    label: str
    x: Sequence[float]
    y: Sequence[float]
    kind: str = "upper"
    status: str = "proven"
    method: str = ""

    @property
    def method_name(self) -> str:
        return self.method or self.label


@dataclasses.dataclass(frozen=True)
class Ruler:
    """A vertical segment at ``x`` from ``low`` to ``high`` marking a value on a panel (the
    rulers of Kaissis et al. Figure 3: where Delta is attained), labelled ``label``."""

    x: float
    low: float
    high: float
    label: str


@dataclasses.dataclass(frozen=True)
class Panel:
    """One set of axes. ``band`` = (x, low, high, label) shades the region between two curves
    (e.g. the best proven lower and upper bounds: the true value lies there); ``rulers`` mark
    values; ``xticks`` fixes the ticks of the x axis (e.g. the powers of 2 of an order axis)."""

    title: str
    xlabel: str
    ylabel: str
    series: Sequence[Series]
    xscale: str = "linear"
    yscale: str = "linear"
    band: tuple | None = None
    rulers: Sequence[Ruler] = ()
    xticks: Sequence[float] | None = None


@dataclasses.dataclass(frozen=True)
class Plot:
    """What a figure function returns: its panels and the notes the caption adds (parameters
    chosen here where the paper states none, a claim of the paper the toolkit's numbers
    contradict, how a curve was computed)."""

    panels: Sequence[Panel]
    notes: Sequence[str] = ()


@dataclasses.dataclass(frozen=True)
class Computed:
    """A figure computed once: its name, parameters, panels and caption; what :func:`draw` draws
    and :func:`write_data` writes."""

    name: str
    description: str
    parameters: dict
    panels: Sequence[Panel]
    notes: Sequence[str]
    caption: str

    def curves(self) -> list[tuple[str, str, str, str]]:
        """(label, method, kind, status) of every curve, once each, in drawing order."""
        seen = {}
        for p in self.panels:
            for s in p.series:
                seen.setdefault((s.label, s.method_name, str(s.kind), str(s.status)), None)
        return list(seen)

    def as_dict(self) -> dict:
        """The JSON form: parameters, caption, notes, and every panel's curves with their
        method, kind, status and points (a point where a method does not apply is null)."""
        def num(v):
            v = float(v)
            return v if math.isfinite(v) else None

        panels = []
        for p in self.panels:
            entry = {"title": p.title, "xlabel": p.xlabel, "ylabel": p.ylabel, "xscale": p.xscale,
                     "yscale": p.yscale,
                     "series": [{"label": s.label, "method": s.method_name, "kind": str(s.kind),
                                 "status": str(s.status), "x": [num(v) for v in s.x], "y": [num(v) for v in s.y]}
                                for s in p.series]}
            if p.band is not None:
                bx, lo, hi, label = p.band
                entry["band"] = {"label": label, "x": [num(v) for v in bx], "low": [num(v) for v in lo],
                                 "high": [num(v) for v in hi]}
            if p.rulers:
                entry["rulers"] = [dataclasses.asdict(r) for r in p.rulers]
            panels.append(entry)
        return {"figure": self.name, "description": self.description,
                "parameters": {k: _json_value(v) for k, v in self.parameters.items()},
                "caption": self.caption, "notes": list(self.notes), "panels": panels}

    def rows(self) -> list[dict]:
        """One row per point of every curve (the CSV of :func:`write_data`); the column
        ``parameters`` holds every parameter the figure was computed with, as ``dptheory plot``
        takes them (``key=value ...``)."""
        out = []
        inputs = " ".join(f"{k}={_json_value(v)}" for k, v in self.parameters.items())
        for i, p in enumerate(self.panels, 1):
            for s in p.series:
                for x, y in zip(s.x, s.y):
                    y = float(y)
                    out.append({"figure": self.name, "parameters": inputs, "panel": i, "panel_title": p.title, "curve": s.label,
                                "method": s.method_name, "kind": str(s.kind), "status": str(s.status),
                                "x_label": p.xlabel, "x": repr(float(x)), "y_label": p.ylabel,
                                "y": repr(y) if math.isfinite(y) else ""})
        return out


def _json_value(v):
    return v if isinstance(v, (str, int, float, bool)) or v is None else str(v)


@dataclasses.dataclass(frozen=True)
class Figure:
    """A registered figure: its name, a one-line description, the function computing it (a
    callable or ``"module:function"``), its parameters' default values and, where the paper
    states no parameters, the sentence saying which were chosen here (``chosen``)."""

    name: str
    description: str
    fn: Callable[..., Any] | str
    defaults: dict
    chosen: str = ""

    def function(self) -> Callable[..., Any]:
        if callable(self.fn):
            return self.fn
        module, _, attr = self.fn.partition(":")
        return getattr(importlib.import_module(module), attr)

    def parameters(self, **params) -> dict:
        """The defaults updated with ``params`` (DomainError for a parameter the figure lacks)."""
        unknown = sorted(set(params) - set(self.defaults))
        if unknown:
            known = ", ".join(f"{k}={v!r}" for k, v in self.defaults.items()) or "none"
            raise DomainError(f"figure {self.name!r} has no parameter {', '.join(unknown)}: its parameters "
                              f"(with defaults) are {known}")
        return {**self.defaults, **params}

    def panels(self, **params):
        """The figure's panels (a list of :class:`Panel`) or the matplotlib figure it draws."""
        data = self.function()(**self.parameters(**params))
        return list(data.panels) if isinstance(data, Plot) else data

    def compute(self, **params) -> Computed:
        """The figure's data with its caption, computed once (for drawing and for the data file)."""
        full = self.parameters(**params)
        data = self.function()(**full)
        if hasattr(data, "savefig"):
            raise DomainError(f"figure {self.name!r} draws itself: it has no data to write")
        panels, notes = (list(data.panels), list(data.notes)) if isinstance(data, Plot) else (list(data), [])
        if self.chosen:
            notes.insert(0, self.chosen)
        out = Computed(self.name, self.description, full, panels, tuple(notes), "")
        return dataclasses.replace(out, caption=caption(out))


_KIND_WORDS = {"upper": "upper bound", "lower": "lower bound", "exact": "exact", "approximation": "approximation"}


def caption(c: Computed) -> str:
    """The caption: the paper's figure (the description), the parameters, each curve's kind and
    status, and the notes."""
    params = ", ".join(f"{k} = {v}" for k, v in c.parameters.items() if k not in ("workers",) and v != "")
    curves = "; ".join(f"{plain(label)}: {_KIND_WORDS.get(kind, kind)}, {status}" for label, _m, kind, status in c.curves())
    text = f"{c.description}. Parameters: {params or 'none'}. Curves: {curves}."
    return " ".join([text, *c.notes])


#: every figure by name, in the order registered
FIGURES: dict[str, Figure] = {}


def register(name: str, description: str, fn: Callable[..., Any] | str, *, chosen: str = "", **defaults) -> Figure:
    """Register a figure: ``fn(**params)`` returns a :class:`Plot`, a list of :class:`Panel` or a
    matplotlib figure; ``defaults`` are its parameters (a value given on the command line is
    converted to the type of the default); ``chosen`` says which parameters were chosen here
    where the paper states none (in the caption and in ``plot --list``). Registering a name
    again replaces it."""
    if not name or any(c.isspace() for c in name):
        raise DomainError(f"figure name = {name!r} is invalid: must be a non-empty word")
    figure = Figure(name, description, fn, dict(defaults), chosen)
    FIGURES[name] = figure
    return figure


def figure(name: str) -> Figure:
    """The figure called ``name``; an unknown name is a DomainError listing the known ones."""
    if name not in FIGURES:
        raise DomainError(f"figure = {name!r} is unknown: must be one of {', '.join(FIGURES)}")
    return FIGURES[name]


def convert(name: str, key: str, text: str):
    """A parameter given as text (``key=value`` on the command line) converted to the type of
    the figure's default for it (text stays text for grids such as ``n=1e3..1e6``)."""
    fig = figure(name)
    fig.parameters(**{key: text})
    default = fig.defaults[key]
    if isinstance(default, bool):
        if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
            raise DomainError(f"{key} = {text!r} is invalid: must be true or false")
        return text.lower() in ("true", "1", "yes")
    if isinstance(default, int):
        return validate.integer(key, text)
    if isinstance(default, float):
        return validate.real(key, text)
    return text


# ---------------------------------------------------------------------------------- drawing
def _output(path, formats=FORMATS) -> pathlib.Path:
    return validate.output_file(path, formats)


#: the check of a figure's output path (suffix .png or .pdf, an existing writable directory), made
#: before anything is computed
output_path = _output


#: file types :func:`write_data` writes, by suffix
DATA_FORMATS = (".csv", ".json")


def write_data(computed: Computed, path) -> pathlib.Path:
    """Write the numbers behind every curve of ``computed``: CSV (one row per point: figure,
    panel, curve, method, kind, status, x, y) or JSON (:meth:`Computed.as_dict`), by suffix."""
    import csv
    import json

    p = _output(path, DATA_FORMATS)
    if p.suffix.lower() == ".json":
        p.write_text(json.dumps(computed.as_dict(), indent=1) + "\n")
        return p
    rows = computed.rows()
    with open(p, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]) if rows else ["figure"])
        writer.writeheader()
        writer.writerows(rows)
    return p


def render(name: str, path, data=None, **params) -> pathlib.Path:
    """Compute the figure ``name`` with ``params`` (its defaults for the others), write it to
    ``path`` (PNG or PDF, by suffix) and, with ``data`` (a .csv or .json path), the numbers
    behind its curves from the same computation. Returns the path of the figure.

    Raises DomainError for an unknown figure (listing the names), a parameter it does not have,
    a bad value, or an output path that cannot be written (checked before any computation).
    """
    return render_computed(name, path, data, **params)[0]


def render_computed(name: str, path, data=None, **params) -> tuple[pathlib.Path, Computed | None]:
    """:func:`render`, returning also the :class:`Computed` figure (None for a figure that
    draws itself)."""
    fig = figure(name)
    fig.parameters(**params)
    p = _output(path)
    d = _output(data, DATA_FORMATS) if data is not None else None
    raw = fig.function()(**fig.parameters(**params))
    if hasattr(raw, "savefig"):
        if d is not None:
            raise DomainError(f"figure {name!r} draws itself: it has no data to write")
        raw.savefig(p, dpi=110)
        _pyplot().close(raw)
        return p, None
    panels, notes = (list(raw.panels), list(raw.notes)) if isinstance(raw, Plot) else (list(raw), [])
    if fig.chosen:
        notes.insert(0, fig.chosen)
    computed = Computed(name, fig.description, fig.parameters(**params), panels, tuple(notes), "")
    computed = dataclasses.replace(computed, caption=caption(computed))
    draw(computed.panels, p, title=fig.description, caption=computed.caption)
    if d is not None:
        write_data(computed, d)
    return p, computed


def gallery(directory, names=None, progress=None) -> list[pathlib.Path]:
    """Draw every figure (or those ``names``) at its defaults into ``directory``/figures/ as PNG,
    with its data as JSON beside it, and write ``directory``/figures.md showing them with their
    captions and the command that draws each. ``progress(name, seconds)`` is called after each
    figure with its wall time.
    Returns the paths written; tests/figures/test_gallery.py recomputes the data and compares."""
    import json

    root = pathlib.Path(directory)
    if not root.is_dir():
        raise DomainError(f"directory = '{root}' is invalid: it does not exist")
    out = root / "figures"
    out.mkdir(exist_ok=True)
    names = list(names or FIGURES)
    written, sections = [], []
    import time

    for name in names:
        start = time.perf_counter()
        png, computed = render_computed(name, out / f"{name}.png", out / f"{name}.json")
        if progress:
            progress(name, time.perf_counter() - start)
        written += [png, out / f"{name}.json"]
        fig = FIGURES[name]
        sections.append(f"## {name}\n\n![{name}](figures/{name}.png)\n\n{computed.caption}\n\n"
                        f"Drawn by `dptheory plot {name}`; its data: `dptheory plot {name} --data {name}.csv`.\n")
    md = root / "figures.md"
    md.write_text("# Figures of the papers, from the toolkit's own code\n\n"
                  "Every figure `dptheory plot` draws, at its default parameters, with its caption (the paper's "
                  "figure, the parameters, each curve's kind and status, and where the toolkit's numbers disagree "
                  "with the paper). Line style tells the kind (upper bound solid, lower bound dotted, exact thick, "
                  "approximation dashed), the marker the status (proven filled circle, unproven hollow triangle, "
                  "refuted cross, not a bound none). The data of each is in `figures/NAME.json`.\n\n"
                  "Generated by `dptheory plot --gallery docs` (tests/figures/test_gallery.py fails when it is "
                  "stale).\n\n" + "\n".join(sections))
    written.append(md)
    return written


_KIND_STYLE = {
    "upper": {"linestyle": "-", "linewidth": 1.4},
    "lower": {"linestyle": ":", "linewidth": 1.8},
    "exact": {"linestyle": "-", "linewidth": 2.6},
    "approximation": {"linestyle": "--", "linewidth": 1.4},
}
_STATUS_MARKER = {
    "proven": {"marker": "o"},
    "unproven": {"marker": "^", "markerfacecolor": "none"},
    "refuted": {"marker": "x", "markersize": 6},
    "not a bound": {"marker": ""},
}


def _label(s: Series) -> str:
    return s.label


def _log_ticks(ax, axis, values) -> None:
    """Readable ticks of a log axis: plain numbers at 1, 2, 5 times the decades when the data
    spans under three decades (rdp orders 2..64), the decades otherwise."""
    import numpy as np
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    v = np.asarray([x for x in values if np.isfinite(x) and x > 0])
    target = ax.xaxis if axis == "x" else ax.yaxis
    target.set_minor_formatter(NullFormatter())
    if v.size and math.log10(v.max() / v.min()) < 3:
        target.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        target.set_major_formatter(FuncFormatter(lambda x, _pos: f"{x:g}"))


def draw(panels: Sequence[Panel], path, *, title: str | None = None, caption: str | None = None) -> pathlib.Path:
    """Draw ``panels`` to ``path``: up to three per row (two by two for four, no empty axes),
    one colour per curve label across panels, one legend under the panels naming each curve
    and explaining the line styles (kind) and markers (status), the caption under it. Returns
    the path."""
    import textwrap

    import numpy as np
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    path = _output(path)
    plt = _pyplot()
    panels = list(panels)
    if not panels:
        raise DomainError("the figure has no panel to draw")
    cols = {1: 1, 2: 2, 3: 3, 4: 2}.get(len(panels), 3)
    rows = math.ceil(len(panels) / cols)
    width = max(4.6 * cols, 7.0)
    labels = list(dict.fromkeys(s.label for p in panels for s in p.series))
    palette = plt.get_cmap("tab10" if len(labels) <= 10 else "tab20")
    colors = {label: palette(i % palette.N) for i, label in enumerate(labels)}
    kinds = list(dict.fromkeys(str(s.kind) for p in panels for s in p.series))
    statuses = list(dict.fromkeys(str(s.status) for p in panels for s in p.series))
    ncol = max(1, min(len(labels), int(width // 3.0)))
    curve_rows = math.ceil(len(labels) / ncol) if labels else 0
    extra = 1 if any(p.rulers for p in panels) or any(p.band is not None for p in panels) else 0
    curve_rows = math.ceil((len(labels) + extra) / ncol) if labels else 0
    chars = int(width * 17.5)
    cap_lines = textwrap.wrap(caption, chars) if caption else []
    title_lines = textwrap.wrap(title, int(width * 11)) if title else []
    panel_h = 3.4
    legend_h = (0.19 * curve_rows + 0.75) if labels else 0
    cap_h = 0.155 * len(cap_lines) + (0.15 if cap_lines else 0)
    title_h = 0.22 * len(title_lines) + (0.1 if title_lines else 0)
    height = panel_h * rows + legend_h + cap_h + title_h + 0.25
    fig, axes = plt.subplots(rows, cols, figsize=(width, height), squeeze=False)
    entries: dict[str, Any] = {}
    for ax, panel in zip(axes.ravel(), panels):
        logx, logy = panel.xscale == "log", panel.yscale in ("log", "log2")
        xs_all, ys_all = [], []
        if panel.band is not None:
            bx, lo, hi, blabel = panel.band
            bx, lo, hi = (np.asarray(v, dtype=float) for v in (bx, lo, hi))
            ok = np.isfinite(bx) & np.isfinite(lo) & np.isfinite(hi) & ((lo > 0) if logy else True)
            if ok.any():
                entries.setdefault(blabel, Patch(color="0.85", label=blabel))
                ax.fill_between(bx[ok], lo[ok], hi[ok], color="0.85", zorder=0)
        for s in panel.series:
            x, y = np.asarray(s.x, dtype=float), np.asarray(s.y, dtype=float)
            ok = np.isfinite(x) & np.isfinite(y) & ((x > 0) if logx else True) & ((y > 0) if logy else True)
            if not ok.any():
                continue
            style = {**_KIND_STYLE.get(str(s.kind), _KIND_STYLE["upper"]),
                     **_STATUS_MARKER.get(str(s.status), {"marker": "s"})}
            style.setdefault("markersize", 3.5)
            every = max(1, int(ok.sum()) // 12)
            (line,) = ax.plot(x[ok], y[ok], color=colors[s.label], markevery=every, label=_label(s), **style)
            entries.setdefault(s.label, line)
            xs_all += list(x[ok])
            ys_all += list(y[ok])
        for r in panel.rulers:
            ax.vlines(r.x, r.low, r.high, color="black", linewidth=2.0, zorder=5)
            ax.annotate(r.label, (r.x, r.high), textcoords="offset points", xytext=(3, 4), fontsize=7)
            entries.setdefault("ruler", Line2D([], [], color="black", linewidth=2.0,
                                               label="ruler: a value marked (see the caption)"))
        ax.set_title(panel.title, fontsize=9)
        ax.set_xlabel(panel.xlabel)
        ax.set_ylabel(panel.ylabel)
        ax.set_xscale(panel.xscale)
        if panel.yscale == "log2":  # a ratio on a base-2 axis, labelled in plain numbers (Wang et al. Figures 1-5)
            from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

            ax.set_yscale("log", base=2)
            ax.yaxis.set_major_locator(LogLocator(base=2))
            ax.yaxis.set_major_formatter(FuncFormatter(lambda x, _pos: f"{x:g}"))
            ax.yaxis.set_minor_formatter(NullFormatter())
        else:
            ax.set_yscale(panel.yscale)
        if logx:
            _log_ticks(ax, "x", xs_all)
        if panel.yscale == "log":
            _log_ticks(ax, "y", ys_all)
        if panel.xticks is not None:
            from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

            ax.xaxis.set_major_locator(FixedLocator(list(panel.xticks)))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _pos: f"{x:g}"))
            ax.xaxis.set_minor_locator(NullLocator())
        ax.grid(True, which="major", linewidth=0.3, alpha=0.5)
        ax.tick_params(labelsize=8)
    for ax in axes.ravel()[len(panels):]:
        ax.set_visible(False)
    key = [Line2D([], [], color="0.3", label=_KIND_WORDS.get(k, k), **_KIND_STYLE.get(k, _KIND_STYLE["upper"]))
           for k in kinds]
    key += [Line2D([], [], color="0.3", linestyle="none", label=st,
                   **{"markersize": 5, **_STATUS_MARKER.get(st, {"marker": "s"})})
            for st in statuses if _STATUS_MARKER.get(st, {}).get("marker", "s")]
    key += [Line2D([], [], linestyle="none", marker="", label=f"no marker: {st}")
            for st in statuses if not _STATUS_MARKER.get(st, {}).get("marker", "s")]
    top = 1 - title_h / height
    bottom = (legend_h + cap_h + 0.1) / height
    fig.tight_layout(rect=(0, bottom, 1, top))
    if entries:
        handles = list(entries.values())
        leg = fig.legend(handles=handles, labels=[h.get_label() for h in handles], loc="upper center",
                         bbox_to_anchor=(0.5, bottom - 0.02 / height), ncol=ncol, fontsize=7.5, frameon=False)
        fig.add_artist(leg)
        kh = 0.19 * curve_rows + 0.12
        fig.legend(handles=key, labels=[h.get_label() for h in key], loc="upper center",
                   bbox_to_anchor=(0.5, bottom - (0.02 + kh) / height), ncol=len(key), fontsize=7,
                   frameon=True, title="line style: kind; marker: status", title_fontsize=7)
    if title_lines:
        fig.suptitle("\n".join(title_lines), fontsize=9.5, y=1 - 0.05 / height)
    if cap_lines:
        fig.text(0.01, 0.08 / height, "\n".join(cap_lines), fontsize=7, va="bottom", ha="left", color="0.15")
    p = pathlib.Path(path)
    fig.savefig(p, dpi=110)
    plt.close(fig)
    return p



# ------------------------------------------------------------ helpers of the derivation scripts
def amplification_panels(panels: dict, path: str) -> None:
    """One panel per (mechanism, n, d): log2 of eps0/eps against eps0, one line per method
    (dashed for a refuted or unproven bound), as in Wang et al. (2024), Figures 1-2."""
    plt = _pyplot()
    keys = list(panels)
    cols = 4
    rows = math.ceil(len(keys) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.2 * rows), squeeze=False)
    for ax, key in zip(axes.ravel(), keys):
        data = panels[key]
        for method in dict.fromkeys(r["method"] for r in data):
            pts = [(r["eps0"], math.log2(r["ratio"])) for r in data if r["method"] == method]
            status = next(r["status"] for r in data if r["method"] == method)
            ax.plot(*zip(*pts), "--" if status != "proven" else "-", label=f"{method} ({status})")
        ax.set_title("{}, n={}, d={}".format(*key))
        ax.set_xlabel("eps0")
        ax.set_ylabel("log2(eps0/eps)")
    axes.ravel()[0].legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def line_panels(panels: dict, path: str, *, logy: bool = True) -> None:
    """Generic panels: ``{title: (xlabel, {label: (xs, ys)})}``, log-log by default; a label that
    ends in "(approximation)" or "(refuted)" is drawn dashed."""
    plt = _pyplot()
    keys = list(panels)
    cols = min(3, len(keys))
    rows = math.ceil(len(keys) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.5 * cols, 3.4 * rows), squeeze=False)
    for ax, title in zip(axes.ravel(), keys):
        xlabel, curves = panels[title]
        for label, (xs, ys) in curves.items():
            dashed = label.endswith("(approximation)") or label.endswith("(refuted)")
            ax.plot(xs, ys, "--" if dashed else "-", marker=".", label=label)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel(xlabel)
        if logy:
            ax.set_yscale("log")
        if xlabel in ("n", "T"):
            ax.set_xscale("log")
        ax.legend(fontsize=6)
    for ax in axes.ravel()[len(keys):]:
        ax.set_visible(False)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ------------------------------------------------------------------------------- the figures
# one line per figure: name, description (the paper and its figure), "module:function" computing
# its panels, default parameters (the paper's where it states them; ``chosen`` says which are not)
register("amplification-vs-n", "Shuffle amplification: ε(δ) against n, every method, upper and lower bounds",
         "dptheory.figures.amplification:versus_n", eps0="1", n="1e3..1e8", delta=1e-8, methods="",
         randomizer="general", workers=1)
register("amplification-vs-eps0", "Shuffle amplification: ε(δ) against ε0, every method, upper and lower bounds",
         "dptheory.figures.amplification:versus_eps0", eps0="0.25,0.5,1,1.5,2,3,4,5", n="1e5", delta=1e-8,
         methods="", randomizer="general", workers=1)
register("rdp-curves", "Shuffle RDP: every method's curve against the order, upper and lower bounds, approximations",
         "dptheory.figures.rdp:curves", eps0="1", n=10000, orders="2..64", methods="", compositions=1)
register("wang-figure-1", "Wang et al. (2024) Figure 1: amplification ratio ε0/ε of shuffled subset selection, by method",
         "dptheory.figures.amplification:wang_figure_1", n="1e4,1e5", d="16,128",
         eps0="0.1,0.5,1,2,3,4,5", methods="", workers=2, rtol=1e-2,
         chosen="The paper states neither δ nor the subset size k: chosen here, δ = 0.01/n (as its Table 5) and the "
                "optimal k = max(1, floor(d/(e^ε0 + 1))).")
register("wang-figure-2", "Wang et al. (2024) Figure 2: amplification ratio ε0/ε of shuffled optimal local hashing, by method",
         "dptheory.figures.amplification:wang_figure_2", n="1e4,1e5", eps0="0.1,0.5,1,2,3,4,5",
         methods="", workers=2, rtol=1e-2,
         chosen="The paper states neither δ nor the rounding of l: chosen here, δ = 0.01/n (as its Table 5) and "
                "l = round(e^ε0 + 1); the local hash's ratio does not depend on d.")
register("wang-figure-3", "Wang et al. (2024) Figure 3: extra amplification ratio ε'/ε of the Cheu and Zhilyaev (2022) "
         "multi-message protocol, variation-ratio bound (numerical, Theorem 4.2, Theorem 4.3)",
         "dptheory.figures.amplification:wang_figure_3", n="1e4,1e5",
         eps="0.01,0.05,0.1,0.15,0.2,0.3,0.4,0.5,0.6,0.8,1,1.25,1.5", rtol=1e-2, workers=1,
         chosen="The paper states neither δ nor the protocol's calibration: chosen here, δ = 0.01/n (as its Table 5) and "
                "the flip probability f with f(1-f)n = (33/5)((e^ε'+1)/(e^ε'-1))² log(4/δ) (the authors' published "
                "code); d does not enter, so one panel per n stands for d = 16 and 128.")
register("wang-figure-4", "Wang et al. (2024) Figure 4: extra amplification ratio ε'/ε of balls-into-bins (Luo et al. 2022) "
         "with n = 32 log(2/δ) d/(ε'² s) messages, variation-ratio bound (numerical, Theorem 4.2, Theorem 4.3)",
         "dptheory.figures.amplification:wang_figure_4", d=100, s=8, delta=1e-6,
         eps="0.01,0.02,0.05,0.1,0.2,0.3,0.5,0.75,1,1.25,1.5", rtol=1e-2, workers=1,
         chosen="The paper states neither d, s nor δ: chosen here as in the authors' published code, d = 100, s = 8, "
                "δ = 1e-6.")
register("wang-figure-5", "Wang et al. (2024) Figure 5: range queries, separate levels against basic and advanced "
         "parallel composition (Theorem 6.1), amplification ratio ε0/ε", "dptheory.figures.amplification:wang_figure_5",
         n="1e4,1e5", d="64,2048", eps0="0.5,1,2,3,5", workers=2, rtol=1e-2,
         chosen="The paper states neither δ nor its x axis: chosen here, δ = 0.01/n (as its Table 5) against ε0.")
register("girgis-figure-2", "Girgis et al. (2021) Figure 2: RDP of one shuffle, UB1 (5), UB2 (8), lower bound (10), eq. (9)",
         "dptheory.figures.rdp:girgis_figure_2", orders="2,5,10,20,50,100,200,500,1000", n="1e3..1e7:2",
         eps0="0.1,0.25,0.5,1,1.5,2,2.5,3,3.5,4", order=100)
register("girgis-figure-3", "Girgis et al. (2021) Figure 3: one shuffle at δ = 1e-6, ε by the RDP routes, clones, "
         "Erlingsson et al., blanket", "dptheory.figures.rdp:girgis_figure_3", n="1e3..1e7",
         eps0="0.1,0.5,1,1.5,2,2.5,3", delta=1e-6, methods="ub1,lb,clones,efmrtt19,blanket-bennett", workers=2)
register("girgis-figure-4", "Girgis et al. (2021) Figure 4: T shuffles at δ = 1e-8, the RDP routes against clones + KOV",
         "dptheory.figures.rdp:girgis_figure_4", T="1..1e5", n="1e4..1e7", eps0="0.25,0.5,1,1.5,2,3,4", delta=1e-8,
         baseline="notebook", workers=2)
register("girgis-figure-5", "Girgis et al. (2021) Figure 5: T subsampled shuffles (γ = 1e-3, ε0 = 3), RDP routes against "
         "clones + KOV", "dptheory.figures.rdp:girgis_figure_5", T="1e1..1e5", n="1e6,1e7", eps0=3.0, rate=1e-3,
         delta=1e-8, baseline="notebook", workers=2)
register("chen-figure-2", "Chen, Cao, Ge (2024) Figure 2: RDP at λ = 4 against ε0 (n = 1e4), exact, approximations, bounds",
         "dptheory.figures.rdp:chen_figure_2", eps0="0.1..4:8", n=10000, order=4)
register("chen-figure-3", "Chen, Cao, Ge (2024) Figure 3: RDP against λ at ε0 = 2 (n = 1e4), exact, approximations, bounds",
         "dptheory.figures.rdp:chen_figure_3", orders="2,3,4,6,8,12,16,24,32,48,64", eps0=2.0, n=10000)
register("shuffle-tradeoff", "Wang et al. (2023): the trade-off curve of shuffling (certified lower bound), exact pair, GDP fit",
         "dptheory.figures.fdp:shuffle_tradeoff", eps0=2.0, n=50, points=61, reduction="stronger-clones")
register("tightness", "Shuffled randomized response: every proven upper bound over the exact epsilon(delta), against n",
         "dptheory.figures.tightness:ratios", eps0="1,4", n="1e2..1e3", delta=1e-6, randomizer="binary-rr", methods="")
register("delta-divergence", "Kaissis et al. (2024) Figure 3: trade-off and Bayes error curves of two mechanisms, Δ both ways",
         "dptheory.figures.fdp:comparison", first="gaussian(mu=1)", second="laplace(eps=1)", points=101)
register("kaissis-figure-1", "Kaissis et al. (2024) Figure 1: two subsampled Gaussian mechanisms with the same (ε, δ) = "
         "(4, 0.08) and different privacy profiles", "dptheory.figures.comparison:kaissis_figure_1",
         first="0.485,0.01,1000", second="1.221,0.5,20", epsilon=4.0, points=25, workers=2,
         chosen="The paper does not give σ, p, N: chosen here (σ, p, N) = (0.485, 0.01, 1000) and (1.221, 0.5, 20), "
                "each σ calibrated so that δ(4) is about 0.08.")
register("kaissis-figure-2", "Kaissis et al. (2024) Figure 2: the geometry of Definition 1, f shifted by κ = Δ lies below f~",
         "dptheory.figures.comparison:kaissis_figure_2", mu=1.0, b=1.0, points=401,
         chosen="The paper states no parameters: those of its Figure 3 (Gaussian μ = 1, Laplace b = 1), chosen here.")
register("kaissis-figure-4", "Kaissis et al. (2024) Figure 4: Bayesian mechanism selection, the Bayes error functions of two "
         "subsampled Gaussian mechanisms weighted by hyper-priors (none, Jeffreys, UQuadratic), Δ both ways",
         "dptheory.figures.comparison:kaissis_figure_4", first="1.36,0.5,20", second="0.485,0.01,1000", points=4001,
         chosen="The paper does not give the mechanisms: chosen here, M = SGM (σ, p, N) = (1.36, 0.5, 20) and M~ = "
                "(0.485, 0.01, 1000) (kaissis-figure-1's first), so that the rankings follow the paper's pattern.")
register("kaissis-figure-6", "Kaissis et al. (2024) Figure 6: Δ(M‖M~) from a base SGM (p = 0.01, N = 500) to SGMs with "
         "sampling rate p~ and N~ steps, all calibrated to (8, 1e-5)-DP, against σ~ and p~",
         "dptheory.figures.comparison:kaissis_figure_6", p="0.04,0.1,0.3,0.6,0.9", steps="534,1000,1500",
         base="0.01,500", epsilon=8.0, delta=1e-5, workers=2,
         chosen="The paper gives the ranges p~ in [0.04, 0.9] and N~ in [534, 1500] but not its grid: chosen here, "
                "p~ = 0.04, 0.1, 0.3, 0.6, 0.9 and N~ = 534, 1000, 1500. It takes about a minute: each point "
                "calibrates σ~ by PLD evaluations (progress on standard error).")
register("kaissis-figure-8", "Kaissis et al. (2024) Figure 8: R_min from f and f from R_min (Appendix B.1), Gaussian G_1",
         "dptheory.figures.comparison:kaissis_figure_8", mu=1.0, lines=9, points=401)
register("wang-su-figure-3b", "Wang, Su et al. (2023) Figure 3b: Lemma 3.1 is not tight (Example F.4, indistinguishable "
         "mixtures)", "dptheory.figures.mixtures:wang_su_figure_3b", eps=1.0, points=201,
         chosen="The main text with the figure's parameters is not available: P, Q = binary randomized response at "
                "ε = 1, chosen here.")
register("wang-su-figure-4", "Wang, Su et al. (2023) Figure 4: Example F.3 (μ = 1, w = 1/3), exact against Lemma 3.1 and "
         "Lemma 6.3", "dptheory.figures.mixtures:wang_su_figure_4", mu=1.0, w=1 / 3, points=201)
