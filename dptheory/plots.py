"""Figures of the papers, reproduced from the toolkit's own code (matplotlib: the ``plot`` extra).

A figure is registered once, by name (:func:`register`), with a function that computes its data
and the default values of its parameters; :func:`render` writes it to a PNG or PDF file and the
command line draws it with ``dptheory plot NAME [--out FILE] [key=value ...]``
(``dptheory plot --list`` names them all). The registrations are the last lines of this module
(their functions are in :mod:`dptheory.figures`); adding a figure is one more line there::

    register("tradeoff-curves", "trade-off curves of ...", "dptheory.figures.tradeoff:curves", eps0=1.0, n=1000)

A figure function takes the parameters as keywords and returns a list of :class:`Panel` (series
of points with the kind and status of the bound they show, drawn in one consistent style: upper
bounds solid, lower bounds dotted, exact values thick, approximations dashed, a bound that is not
proven dash-dotted with its status in the legend), or a ``matplotlib.figure.Figure`` it drew
itself. It is named by ``"module:function"`` (imported when the figure is drawn, so that listing
the figures imports nothing heavy) or given as a callable.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import os
import pathlib
from typing import Any, Callable, Sequence

from . import validate
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
    ("upper", "lower", "exact", "approximation") and proof ``status``. Non-finite points (a
    method that does not apply there) are left out of the line."""

    label: str
    x: Sequence[float]
    y: Sequence[float]
    kind: str = "upper"
    status: str = "proven"


@dataclasses.dataclass(frozen=True)
class Panel:
    """One set of axes. ``band`` = (x, low, high, label) shades the region between two curves
    (e.g. the best proven lower and upper bounds: the true value lies there)."""

    title: str
    xlabel: str
    ylabel: str
    series: Sequence[Series]
    xscale: str = "linear"
    yscale: str = "linear"
    band: tuple | None = None


@dataclasses.dataclass(frozen=True)
class Figure:
    """A registered figure: its name, a one-line description, the function computing it (a
    callable or ``"module:function"``) and its parameters' default values."""

    name: str
    description: str
    fn: Callable[..., Any] | str
    defaults: dict

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
        """The figure's data (a list of :class:`Panel`) or the matplotlib figure it draws."""
        return self.function()(**self.parameters(**params))


#: every figure by name, in the order registered
FIGURES: dict[str, Figure] = {}


def register(name: str, description: str, fn: Callable[..., Any] | str, **defaults) -> Figure:
    """Register a figure: ``fn(**params)`` returns a list of :class:`Panel` (or a matplotlib
    figure); ``defaults`` are its parameters (a value given on the command line is converted
    to the type of the default). Registering a name again replaces it."""
    if not name or any(c.isspace() for c in name):
        raise DomainError(f"figure name = {name!r} is invalid: must be a non-empty word")
    figure = Figure(name, description, fn, dict(defaults))
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
def _output(path) -> pathlib.Path:
    p = pathlib.Path(path)
    if p.suffix.lower() not in FORMATS:
        raise DomainError(f"output = '{p}' is invalid: the file name must end in {' or '.join(FORMATS)}")
    if p.is_dir():
        raise DomainError(f"output = '{p}' is invalid: it is a directory")
    parent = p.parent if str(p.parent) else pathlib.Path(".")
    if not parent.is_dir():
        raise DomainError(f"output = '{p}' is not writable: directory '{parent}' does not exist")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise DomainError(f"output = '{p}' is not writable: permission denied")
    return p


def render(name: str, path, **params) -> pathlib.Path:
    """Compute the figure ``name`` with ``params`` (its defaults for the others) and write it to
    ``path`` (PNG or PDF, by suffix). Returns the path.

    Raises DomainError for an unknown figure (listing the names), a parameter it does not have,
    a bad value, or an output path that cannot be written (checked before any computation).
    """
    fig = figure(name)
    fig.parameters(**params)
    p = _output(path)
    data = fig.panels(**params)
    if hasattr(data, "savefig"):
        data.savefig(p, dpi=110)
        _pyplot().close(data)
        return p
    return draw(data, p, title=fig.description)


_KIND_STYLE = {
    "upper": {"linestyle": "-", "marker": "v"},
    "lower": {"linestyle": ":", "marker": "^"},
    "exact": {"linestyle": "-", "marker": "o", "linewidth": 2.2},
    "approximation": {"linestyle": "--", "marker": ""},
}


def _label(s: Series) -> str:
    extra = "" if s.status in ("proven", "not a bound") else f", {s.status}"
    return f"{s.label} ({s.kind}{extra})"


def draw(panels: Sequence[Panel], path, *, title: str | None = None) -> pathlib.Path:
    """Draw ``panels`` (up to three per row) to ``path``; one colour per series label across
    panels. Returns the path."""
    import numpy as np
    from matplotlib.ticker import NullFormatter

    plt = _pyplot()
    panels = list(panels)
    if not panels:
        raise DomainError("the figure has no panel to draw")
    cols = min(3, len(panels))
    rows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.8 * cols, 3.8 * rows + (0.5 if title else 0)), squeeze=False)
    palette = plt.get_cmap("tab10" if len({s.label for p in panels for s in p.series}) <= 10 else "tab20")
    colors: dict[str, Any] = {}
    for ax, panel in zip(axes.ravel(), panels):
        logx, logy = panel.xscale == "log", panel.yscale == "log"
        if panel.band is not None:
            bx, lo, hi, blabel = panel.band
            bx, lo, hi = (np.asarray(v, dtype=float) for v in (bx, lo, hi))
            ok = np.isfinite(bx) & np.isfinite(lo) & np.isfinite(hi) & ((lo > 0) if logy else True)
            if ok.any():
                ax.fill_between(bx[ok], lo[ok], hi[ok], color="0.85", label=blabel, zorder=0)
        for s in panel.series:
            x, y = np.asarray(s.x, dtype=float), np.asarray(s.y, dtype=float)
            ok = np.isfinite(x) & np.isfinite(y) & ((x > 0) if logx else True) & ((y > 0) if logy else True)
            if not ok.any():
                continue
            color = colors.setdefault(s.label, palette(len(colors) % palette.N))
            style = dict(_KIND_STYLE.get(s.kind, _KIND_STYLE["upper"]))
            if s.status in ("refuted", "unproven"):
                style["linestyle"] = "-."
            ax.plot(x[ok], y[ok], color=color, markersize=3.5, label=_label(s), **style)
        ax.set_title(panel.title, fontsize=9)
        ax.set_xlabel(panel.xlabel)
        ax.set_ylabel(panel.ylabel)
        ax.set_xscale(panel.xscale)
        ax.set_yscale(panel.yscale)
        for axis, scale in ((ax.xaxis, panel.xscale), (ax.yaxis, panel.yscale)):
            if scale == "log":  # labels at the decades only: clearer, and much faster to lay out
                axis.set_minor_formatter(NullFormatter())
        if ax.lines or ax.collections:
            ax.legend(fontsize=6)
    for ax in axes.ravel()[len(panels):]:
        ax.set_visible(False)
    if title:
        import textwrap

        fig.suptitle("\n".join(textwrap.wrap(title, 62 * cols)), fontsize=9)
    fig.tight_layout()
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
# one line per figure: name, description, "module:function" computing its panels, default parameters
register("amplification-vs-n", "Shuffle amplification: epsilon(delta) against n, every method, upper and lower bounds",
         "dptheory.figures.amplification:versus_n", eps0="1", n="1e3..1e8", delta=1e-8, methods="",
         randomizer="general", workers=1)
register("amplification-vs-eps0", "Shuffle amplification: epsilon(delta) against eps0, every method, upper and lower bounds",
         "dptheory.figures.amplification:versus_eps0", eps0="0.25,0.5,1,1.5,2,3,4,5", n="1e5", delta=1e-8,
         methods="", randomizer="general", workers=1)
register("rdp-curves", "Shuffle RDP: every method's curve against the order, upper and lower bounds, approximations",
         "dptheory.figures.rdp:curves", eps0="1", n=10000, orders="2..64", methods="", compositions=1)
register("wang-figure-1", "Wang et al. (2024) Figure 1: amplification ratio of shuffled subset selection, by method",
         "dptheory.figures.amplification:wang_figure_1", n="1e4,1e5", d="16,128",
         eps0="0.5,1,1.5,2,2.5,3,3.5,4,4.5,5", methods="")
register("wang-figure-2", "Wang et al. (2024) Figure 2: amplification ratio of shuffled optimal local hashing, by method",
         "dptheory.figures.amplification:wang_figure_2", n="1e4,1e5", eps0="0.5,1,1.5,2,2.5,3,3.5,4,4.5,5", methods="")
register("girgis-figure-2", "Girgis et al. (2021) Figure 2: RDP of one shuffle, UB1, UB2, lower bound, eq. (9)",
         "dptheory.figures.rdp:girgis_figure_2", orders="2,5,10,20,50,100,200,500,1000", n="1e3..1e7",
         eps0="0.1,0.5,1,1.5,2,2.5,3,4", order=100)
register("girgis-figure-3", "Girgis et al. (2021) Figure 3: one shuffle, epsilon by the RDP routes, clones, blanket",
         "dptheory.figures.rdp:girgis_figure_3", n="1e3..1e7", eps0="0.25,0.5,1,1.5,2,2.5,3", delta=1e-6,
         methods="ub1,lb,clones,blanket-bennett")
register("girgis-figure-4", "Girgis et al. (2021) Figure 4: T shuffles, the UB1 route against clones + KOV",
         "dptheory.figures.rdp:girgis_figure_4", T="1,10,100,1000,10000", eps0="0.5,2", n=10**6, delta=1e-8,
         notebook=True)
register("girgis-figure-5", "Girgis et al. (2021) Figure 5: T subsampled shuffles (gamma = 1e-3), UB1 route vs clones + KOV",
         "dptheory.figures.rdp:girgis_figure_5", T="10,100,1000,10000", n="1e6,1e7", eps0=3.0, rate=1e-3, delta=1e-8,
         notebook=True)
register("chen-figure-2", "Chen, Cao, Ge (2024) Figure 2: RDP at lambda = 4 against eps0, exact, approximations, bounds",
         "dptheory.figures.rdp:chen_figure_2", eps0="0.1..4:5", n=10000, order=4)
register("chen-figure-3", "Chen, Cao, Ge (2024) Figure 3: RDP against lambda at eps0 = 2, exact, approximations, bounds",
         "dptheory.figures.rdp:chen_figure_3", orders="2,3,4,6,8,12,16,24,32,48,64", eps0=2.0, n=10000)
register("shuffle-tradeoff", "Wang et al. (2023): the trade-off curve of shuffling (certified lower bound), exact pair, GDP fit",
         "dptheory.figures.fdp:shuffle_tradeoff", eps0=2.0, n=50, points=61, reduction="stronger-clones")
register("tightness", "Shuffled randomized response: every proven upper bound over the exact epsilon(delta), against n",
         "dptheory.figures.tightness:ratios", eps0="1,4", n="1e2..1e3", delta=1e-6, randomizer="binary-rr", methods="")
register("delta-divergence", "Kaissis et al. (2024) Figure 3: trade-off and Bayes error curves of two mechanisms, Delta both ways",
         "dptheory.figures.fdp:comparison", first="gaussian(mu=1)", second="laplace(eps=1)", points=101)
