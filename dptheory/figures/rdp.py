"""Renyi DP of the shuffle model: the RDP curves of every method (upper bounds, lower bounds and
approximations), and the figures of Girgis et al. (CCS 2021, Figures 2-5) and Chen, Cao, Ge
(ICASSP 2024, Figures 2-3), computed by the toolkit with the parameters the papers' captions and
experiment sections state (the figures are images the papers' texts do not give: the grids are
chosen here, and say so).

Speed: a figure over T (or over several T) computes each RDP curve once per (eps0, n) on one
order grid and converts T times it by Lemma 2.1 (:func:`dptheory.rdp.epsilon_from_rdp`): the
conversion is a minimum over valid orders, so every point is an upper bound whatever the grid.
"""

from __future__ import annotations

import numpy as np

from .. import rounding, sweep, validate
from ..plots import Panel, Plot, Series
from ..validate import DomainError
from .labels import EPS0, LAM, N, RDP, T_AXIS, eps_at, fmt, integer_grid, tex_number

#: integer orders for the conversions of the composed figures: 2..64, then geometric to 2^20
ROUTE_ORDERS = np.unique(np.concatenate([np.arange(2, 65), np.round(np.geomspace(64, 2**20, 120))])).astype(float)
#: the largest order of the subsampled routes of Figure 5 (every integer order up to it)
SUBSAMPLED_TOP = 1024
#: orders of the lower bound's route (its sum costs more per order)
LB_ORDERS = np.unique(np.concatenate([np.arange(2, 9), np.round(np.geomspace(8, 2**17, 30))])).astype(float)


def _pow2_ticks(o) -> list[float]:
    o = np.asarray(o, dtype=float)
    k = np.arange(np.floor(np.log2(o.min())), np.ceil(np.log2(o.max())) + 1)
    return list(2.0 ** k)


def curves(eps0="1", n=1e4, orders="2..64", methods="", compositions=1) -> list[Panel]:
    """The RDP curve of every method of :mod:`dptheory.shuffle.rdp` (or those named) against the
    order, a panel per eps0: upper bounds by their upper end, lower bounds by their lower end,
    approximations (not bounds) dashed; the shaded band runs between the best proven bounds."""
    from ..rdp import parse_orders
    from ..results import Curve
    from ..shuffle import rdp

    o = parse_orders(orders)
    slugs = [m.strip() for m in methods.split(",") if m.strip()] or None
    panels = []
    for e0 in sweep.parse_values("eps0", eps0, low=0.0, low_open=True):
        out = rdp.rdp_curves(e0, n, o, slugs, compositions=compositions)
        series = []
        hi, lo = np.full(o.shape, np.inf), np.zeros(o.shape)
        for c in out:
            if not isinstance(c, Curve):
                continue
            y = c.lower if str(c.kind) == "lower" else (c.upper if str(c.kind) in ("upper", "exact") else c.value)
            title = rdp.RDP_METHODS[c.method].title if c.method in rdp.RDP_METHODS else c.method
            series.append(Series(f"{title} ({c.method})", c.grid, y, str(c.kind), str(c.status), c.method))
            if str(c.status) == "proven":
                at = np.searchsorted(o, c.grid)
                if str(c.kind) in ("upper", "exact"):
                    hi[at] = np.minimum(hi[at], c.upper)
                if str(c.kind) in ("lower", "exact"):
                    lo[at] = np.maximum(lo[at], c.lower)
        T = f", $T = {compositions}$" if compositions != 1 else ""
        panels.append(Panel(f"shuffle RDP: {fmt(EPS0, e0)}, $n = {tex_number(float(n))}${T}", LAM, RDP,
                            series, xscale="log", yscale="log", xticks=_pow2_ticks(o),
                            band=(o, np.where(lo > 0, lo, np.nan), np.where(np.isfinite(hi), hi, np.nan),
                                  "between the proven bounds")))
    return panels


def _over(xs, fn) -> dict:
    """{label: [value at each x]} from ``fn(x) -> {label: value}``."""
    cols = [fn(x) for x in xs]
    return {k: [float(np.atleast_1d(c[k])[0]) for c in cols] for k in cols[0]}


def _method_kinds(labels: dict) -> dict:
    """{label: (kind, status, slug)} of the RDP methods the labels stand for (their one definition)."""
    from ..shuffle.rdp import RDP_METHODS

    return {label: (str(RDP_METHODS[slug].kind), str(RDP_METHODS[slug].status()), slug) for label, slug in labels.items()}


def _panel(title, xlabel, xs, values: dict, kinds: dict, xscale="log", yscale="log", ylabel=RDP, xticks=None) -> Panel:
    series = [Series(label, list(xs), list(v), *kinds[label]) for label, v in values.items()]
    return Panel(title, xlabel, ylabel, series, xscale=xscale, yscale=yscale, xticks=xticks)


# ------------------------------------------------------------------------------ Girgis et al. Figure 2
_G2_METHODS = {"UB1, eq. (5), Theorem 3.1": "girgis-upper-1", "UB2, eq. (8), Theorem 3.3": "girgis-upper-2",
               "LB, eq. (10), Theorem 3.4": "girgis-lower", "eq. (9), Erlingsson et al.": "erlingsson-rdp"}


def _g2_curves(e0, n, lam):
    from ..shuffle import rdp

    lam = np.atleast_1d(np.asarray(lam, dtype=float))
    ub1, ub2, lb, eq9 = _G2_METHODS
    return {ub1: rdp.upper_1(e0, n, lam), ub2: rdp.upper_2(e0, n, lam),
            lb: rdp.lower_bound(e0, n, lam, rtol=1e-4).lower, eq9: rdp.erlingsson(e0, n, lam)}


def ub1_above_ub2(panel: Panel) -> list[float]:
    """The x of a Figure 2 panel where UB1 (Theorem 3.1) lies above UB2 (Theorem 3.3)."""
    by = {s.method_name: s for s in panel.series}
    u1, u2 = by["girgis-upper-1"], by["girgis-upper-2"]
    return [float(x) for x, a, b in zip(u1.x, u1.y, u2.y) if a > b]


def girgis_figure_2(orders="2,5,10,20,50,100,200,500,1000", n="1e3..1e7:2", eps0="0.1,0.25,0.5,1,1.5,2,2.5,3,3.5,4",
                    order=100) -> Plot:
    """Girgis et al. (2021), Figure 2: RDP of one shuffle by UB1 (eq. (5), Theorem 3.1), UB2 (eq.
    (8), Theorem 3.3), the lower bound (eq. (10), Theorem 3.4, an exact sum) and eq. (9) (Erlingsson
    et al.); panels (a)-(f) as the paper's caption: against lambda at eps0 = 0.1 and 3 (n = 1e4),
    against n at lambda = ``order`` (eps0 = 0.1, 3), against eps0 at lambda = ``order`` (n = 1e4,
    1e6). Where UB1 lies above UB2 (against the paper's statement that (5) is tighter than (8))
    the caption says so, at the points found."""
    lam = np.asarray([float(v) for v in sweep.parse_values("orders", orders, low=1.0, low_open=True)])
    ns = integer_grid("n", n, low=2)
    es = sweep.parse_values("eps0", eps0, low=0.0, low_open=True)
    k = float(sweep.parse_values("order", order, low=1.0, low_open=True)[0])
    K = _method_kinds(_G2_METHODS)
    at = rf"$\lambda = {k:g}$"
    panels = [
        _panel(f"(a) {fmt(EPS0, 0.1)}, $n = 10^4$", LAM, lam, {a: list(v) for a, v in _g2_curves(0.1, 10**4, lam).items()}, K),
        _panel(f"(b) {fmt(EPS0, 0.1)}, {at}", N, ns, _over(ns, lambda x: _g2_curves(0.1, x, k)), K),
        _panel(f"(c) $n = 10^4$, {at}", EPS0, es, _over(es, lambda x: _g2_curves(x, 10**4, k)), K, "linear"),
        _panel(f"(d) {fmt(EPS0, 3)}, $n = 10^4$", LAM, lam, {a: list(v) for a, v in _g2_curves(3.0, 10**4, lam).items()}, K),
        _panel(f"(e) {fmt(EPS0, 3)}, {at}", N, ns, _over(ns, lambda x: _g2_curves(3.0, x, k)), K),
        _panel(f"(f) $n = 10^6$, {at}", EPS0, es, _over(es, lambda x: _g2_curves(x, 10**6, k)), K, "linear"),
    ]
    notes = []
    for p in panels:
        where = ub1_above_ub2(p)
        if where:
            axis = {LAM: "λ", N: "n", EPS0: "ε0"}[p.xlabel]
            notes.append(f"Disagreement with the paper: in panel {p.title[:3]} UB1 (Theorem 3.1) lies above UB2 "
                         f"(Theorem 3.3) at {axis} = {', '.join(f'{x:g}' for x in where)}, against the paper's "
                         "statement (Section 4) that (5) is tighter than (8); the toolkit's UB1 and UB2 are "
                         "the corrected bounds (docs/errata.md).")
    return Plot(panels, notes)


# ------------------------------------------------------------------------------ Girgis et al. Figure 3
_G3_ROUTES = {"ub1": "UB1 route (Lemma 2.1)", "lb": "LB route (Lemma 2.1)", "clones": "Feldman et al. (clones)",
              "efmrtt19": "Erlingsson et al.", "blanket-bennett": "Balle et al. (blanket)"}


def route(orders, values, delta, T: int = 1):
    """epsilon(delta) of ``T`` compositions of an RDP curve given at ``orders`` (Lemma 2.1 at the
    best valid order, :func:`dptheory.rdp.epsilon_from_rdp`): a Result."""
    from .. import rdp as rdp_module

    v = np.asarray(values, dtype=float)
    ok = np.isfinite(v)
    return rdp_module.epsilon_from_rdp(np.asarray(orders, dtype=float)[ok], rounding.up(T * v[ok]), delta)


class LazyCurve:
    """An RDP curve ``fn(orders)`` on the integer orders of ``grid``, evaluated up to 4096 first and
    eightfold further only while a conversion's best order is the largest evaluated (large orders
    cost the most and are needed only for small eps0 and large n)."""

    def __init__(self, fn, grid, start: float = 4096.0):
        self.fn, self.grid, self.start = fn, np.asarray(grid, dtype=float), start
        self.orders, self.values = np.empty(0), np.empty(0)

    def _upto(self, top: float):
        if self.orders.size and self.orders[-1] >= min(top, self.grid[-1]):
            keep = self.orders <= top
            return self.orders[keep], self.values[keep]
        new = self.grid[(self.grid > (self.orders[-1] if self.orders.size else 0)) & (self.grid <= top)]
        if new.size:
            self.orders = np.concatenate([self.orders, new])
            self.values = np.concatenate([self.values, np.asarray(self.fn(new), dtype=float)])
        return self._upto(top) if new.size else (self.orders, self.values)

    def epsilon(self, delta, T: int = 1):
        """:func:`route` of T compositions at the best order (a Result, the order in ``params``)."""
        top = self.start
        while True:
            o, v = self._upto(top)
            res = route(o, v, delta, T)
            if res.params["order"] < o[-1] or o[-1] >= self.grid[-1]:
                return res
            top *= 8


def _g3_point(task) -> dict:
    """{route label: (value, kind, status, method)} of Figure 3 at one (eps0, n) (a task of the
    executor: module level, picklable)."""
    from .. import shuffle
    from ..shuffle import randomizers as R, rdp
    from ..shuffle.methods import NotApplicable
    from ..validate import ConditionError

    e0, nn, d, wanted = task
    out = {}
    for m in wanted:
        label = _G3_ROUTES[m]
        if m == "ub1":
            res = LazyCurve(lambda o: rdp.upper_1(e0, nn, o), ROUTE_ORDERS).epsilon(d)
            out[label] = (res.upper, "upper", "proven", "girgis-upper-1 + Lemma 2.1")
        elif m == "lb":
            res = LazyCurve(lambda o: rdp.lower_bound(e0, nn, o, rtol=1e-3).lower, LB_ORDERS).epsilon(d)
            out[label] = (res.upper, "approximation", "not a bound", "girgis-lower + Lemma 2.1")
        else:
            try:
                res = shuffle.epsilon(R.general_ldp(e0), nn, d, method=m)
            except (NotApplicable, ConditionError):  # e.g. Erlingsson et al. needs eps0 <= 1/2
                continue
            if not np.isfinite(res.upper):
                continue
            out[label] = (res.upper, str(res.kind), str(res.status), m)
    return out


def _results_panels(specs, point, workers, ylabel):
    """Panels from ``specs`` = [(title, xlabel, xs, xscale, task_of_x)], every point computed by
    ``point(task)`` (in parallel with ``workers`` > 1)."""
    from .. import executor

    tasks = [task_of(x) for (_t, _xl, xs, _s, task_of) in specs for x in xs]
    results = executor.run_tasks(point, tasks, workers=workers, progress=True)
    panels, i = [], 0
    for title, xlabel, xs, xscale, _ in specs:
        cols = results[i:i + len(xs)]
        i += len(xs)
        labels = list(dict.fromkeys(k for c in cols for k in c))
        series = []
        for label in labels:
            info = next(c[label] for c in cols if label in c)
            ys = [c[label][0] if label in c else np.nan for c in cols]
            series.append(Series(label, list(xs), ys, info[1], info[2], info[3]))
        panels.append(Panel(title, xlabel, ylabel, series, xscale=xscale, yscale="log"))
    return panels


def girgis_figure_3(n="1e3..1e7", eps0="0.1,0.5,1,1.5,2,2.5,3", delta=1e-6,
                    methods="ub1,lb,clones,efmrtt19,blanket-bennett", workers=2) -> Plot:
    """Girgis et al. (2021), Figure 3: one shuffle at delta = 1e-6, epsilon by the RDP routes (UB1
    through Lemma 2.1; the lower bound through it, which is no bound on epsilon: drawn as an
    approximation), the clone bound of Feldman et al. (numerical), the bound of Erlingsson et al.
    (where it applies) and the privacy blanket (Bennett). Panels: (a) against n at eps0 = 0.1, (b)
    against eps0 at n = 1e4, (c) against n at eps0 = 3, (d) against eps0 at n = 1e5."""
    wanted = [m.strip() for m in methods.split(",") if m.strip()]
    bad = [m for m in wanted if m not in _G3_ROUTES]
    if bad or not wanted:
        raise DomainError(f"methods = {methods!r} is invalid: must be a subset of {', '.join(_G3_ROUTES)}")
    d = validate.delta("delta", delta)
    ns = integer_grid("n", n, low=2)
    es = sweep.parse_values("eps0", eps0, low=0.0, low_open=True)
    paper_only = [m for m in wanted if m != "efmrtt19"]  # the paper omits Erlingsson et al. from 3b and 3d
    at = f"$\\delta = {tex_number(d)}$"
    specs = [(f"(a) {fmt(EPS0, 0.1)}, {at}", N, ns, "log", lambda x: (0.1, x, d, wanted)),
             (f"(b) $n = 10^4$, {at}", EPS0, es, "linear", lambda x: (x, 10**4, d, paper_only)),
             (f"(c) {fmt(EPS0, 3)}, {at}", N, ns, "log", lambda x: (3.0, x, d, wanted)),
             (f"(d) $n = 10^5$, {at}", EPS0, es, "linear", lambda x: (x, 10**5, d, paper_only))]
    panels = _results_panels(specs, _g3_point, int(workers), eps_at(d))
    notes = [f"The RDP routes minimise Lemma 2.1 over {len(ROUTE_ORDERS)} integer orders up to 2^20 (UB1) and "
             f"{len(LB_ORDERS)} up to 2^17 (LB); the LB route is not a bound on epsilon (it shows the best the RDP "
             "route could give)."]
    if "efmrtt19" in wanted:
        notes.append("Erlingsson et al. (2019) is drawn where its theorem applies (eps0 <= 1/2, n >= 1000): panel "
                     "(a). The paper also plots it in (c) at eps0 = 3 with a general-eps0 form it does not state; "
                     "the toolkit has no proven form there, so (c) has no such curve. The paper omits it from (b) "
                     "and (d).")
    return Plot(panels, notes)


# ------------------------------------------------------------------------------ Girgis et al. Figures 4-5
def _composed_point(task) -> dict:
    """{label: (value, kind, status, method)} of Figure 4 or 5 at one (eps0, n, rate) for every T
    of the task: each RDP curve computed once, composed T times and converted by Lemma 2.1."""
    from ..composition import poisson_subsampled_rdp
    from ..shuffle import rdp

    e0, nn, Ts, d, g, baseline, with_eq9 = task
    ns = max(2, int(g * nn))
    out = []
    if g == 1:
        curves = {"UB1 route": LazyCurve(lambda o: rdp.upper_1(e0, ns, o), ROUTE_ORDERS),
                  "LB route": LazyCurve(lambda o: rdp.lower_bound(e0, ns, o, rtol=1e-3).lower, LB_ORDERS),
                  "eq. (9) route": LazyCurve(lambda o: rdp.erlingsson(e0, ns, o), ROUTE_ORDERS)}
        status = "proven"
    else:
        o = np.arange(2, SUBSAMPLED_TOP + 1, dtype=float)
        curves = {}
        for label, fn in (("UB1 route", rdp.upper_1), ("LB route", lambda a, b, c: rdp.lower_bound(a, b, c, rtol=1e-4).lower)):
            base = dict(zip(o.astype(int), fn(e0, ns, o)))
            values = np.array([poisson_subsampled_rdp(lambda l: base[l], int(a), g) for a in o])
            curves[label] = LazyCurve(lambda x, values=values: values[: len(x)], o, start=SUBSAMPLED_TOP)
        status = "unproven"
    kinds = {"UB1 route": ("upper", status, "girgis-upper-1 + Lemma 2.1"),
             "LB route": ("approximation", "not a bound", "girgis-lower + Lemma 2.1"),
             "eq. (9) route": ("upper", "proven", "erlingsson-rdp + Lemma 2.1")}
    for T in Ts:
        row = {}
        for label, curve in curves.items():
            if label == "eq. (9) route" and not with_eq9:
                continue
            res = curve.epsilon(d, T)
            row[label] = (res.upper, *kinds[label])
            if g != 1 and res.params["order"] >= SUBSAMPLED_TOP:
                row.setdefault("_at_top", []).append(label)
        for protocol in (("exact", "notebook") if baseline == "both" else (baseline,)):
            res = rdp.fmt_kov_epsilon(e0, nn, T, d, rate=g, protocol=protocol)
            name = "clones + KOV" + (", first author's protocol" if protocol == "notebook" else ", exact clone bound")
            row[name] = (res.upper, str(res.kind), str(res.status), res.method)
        out.append(row)
    return out


def _composed_panels(specs, workers, d):
    """specs = [(title, xlabel, xs, xscale, [(eps0, n, T) per x])]: points grouped by (eps0, n) so
    that each RDP curve is computed once for all T."""
    from .. import executor

    groups: dict = {}
    for _t, _xl, _xs, _s, points in specs:
        for e0, nn, T, g, baseline, eq9 in points:
            groups.setdefault((e0, nn, g, baseline, eq9), set()).add(T)
    keys = list(groups)
    tasks = [(e0, nn, sorted(groups[(e0, nn, g, b, q)]), d, g, b, q) for (e0, nn, g, b, q) in keys]
    results = executor.run_tasks(_composed_point, tasks, workers=workers, progress=True)
    table = {}
    for task, rows in zip(tasks, results):
        for T, row in zip(task[2], rows):
            table[(task[0], task[1], T, task[4], task[5], task[6])] = row
    panels, at_top = [], []
    for title, xlabel, xs, xscale, points in specs:
        cols = [table[(e0, nn, T, g, b, q)] for e0, nn, T, g, b, q in points]
        at_top += [(title[:3], x, label) for x, c in zip(xs, cols) for label in c.get("_at_top", [])]
        series = []
        for label in dict.fromkeys(k for c in cols for k in c if not k.startswith("_")):
            info = next(c[label] for c in cols if label in c)
            series.append(Series(label, list(xs), [c[label][0] if label in c else np.nan for c in cols],
                                 info[1], info[2], info[3]))
        panels.append(Panel(title, xlabel, eps_at(d), series, xscale=xscale, yscale="log"))
    return panels, at_top


_BASELINES = ("notebook", "exact", "both")


def _baseline(baseline: str) -> str:
    if baseline not in _BASELINES:
        raise DomainError(f"baseline = {baseline!r} is invalid: must be one of {', '.join(_BASELINES)}")
    return baseline


def girgis_figure_4(T="1..1e5", n="1e4..1e7", eps0="0.25,0.5,1,1.5,2,3,4", delta=1e-8, baseline="notebook",
                    workers=2) -> Plot:
    """Girgis et al. (2021), Figure 4: T adaptive shuffles at delta = 1e-8, the routes of UB1, of
    the lower bound (no bound on epsilon: an approximation) and of eq. (9) through Lemma 2.1,
    against the clone bound composed by Kairouz, Oh, Viswanath (KOV), by the first author's
    protocol (``baseline="notebook"``, as the paper's figure), the exact clone bound (``"exact"``)
    or both. Panels as the caption: (a) against T at eps0 = 0.5, n = 1e6; (b) against n at eps0 =
    0.5, T = 1e4; (c) against eps0 at n = 1e5, T = 1e4; (d)-(f) the same at eps0 = 2 (n = 1e6 in (f))."""
    Ts = integer_grid("T", T, low=1)
    ns = integer_grid("n", n, low=2)
    es = sweep.parse_values("eps0", eps0, low=0.0, low_open=True)
    d = validate.delta("delta", delta)
    b = _baseline(baseline)
    pt = lambda e0, nn, t: (float(e0), int(nn), int(t), 1.0, b, True)  # noqa: E731
    specs = [(f"(a) {fmt(EPS0, 0.5)}, $n = 10^6$", T_AXIS, Ts, "log", [pt(0.5, 10**6, t) for t in Ts]),
             (f"(b) {fmt(EPS0, 0.5)}, $T = 10^4$", N, ns, "log", [pt(0.5, x, 10**4) for x in ns]),
             (f"(c) $n = 10^5$, $T = 10^4$", EPS0, es, "linear", [pt(x, 10**5, 10**4) for x in es]),
             (f"(d) {fmt(EPS0, 2)}, $n = 10^6$", T_AXIS, Ts, "log", [pt(2.0, 10**6, t) for t in Ts]),
             (f"(e) {fmt(EPS0, 2)}, $T = 10^4$", N, ns, "log", [pt(2.0, x, 10**4) for x in ns]),
             (f"(f) $n = 10^6$, $T = 10^4$", EPS0, es, "linear", [pt(x, 10**6, 10**4) for x in es])]
    panels, _ = _composed_panels(specs, int(workers), d)
    notes = [f"delta = {d:g} in total; the baseline splits it as the first author's notebook (delta/(2T) per "
             "round, KOV's slack the rest)" + (", with three bisection steps of the clone bound and no amplification "
                                              "where its closed form's condition fails (the paper's protocol)"
                                              if b != "exact" else "") + ".",
             f"The RDP routes minimise Lemma 2.1 over {len(ROUTE_ORDERS)} integer orders up to 2^20 (UB1, eq. (9)) "
             f"and {len(LB_ORDERS)} up to 2^17 (LB)."]
    return Plot(panels, notes)


def girgis_figure_5(T="1e1..1e5", n="1e6,1e7", eps0=3.0, rate=1e-3, delta=1e-8, baseline="notebook",
                    workers=2) -> Plot:
    """Girgis et al. (2021), Figure 5: as Figure 4 with Poisson subsampling at ``rate`` (gamma =
    1e-3), eps0 = 3, floor(gamma n) users per shuffle; (a) n = 1e6, (b) n = 1e7 (the caption of
    (b) says "as a function of n" with n = 1e7: the text shows it is against T). The UB1 and LB
    routes subsample each order's RDP by Zhu and Wang's bound (orders 2..``SUBSAMPLED_TOP``), the baseline
    subsamples the clone bound's (epsilon, delta) (Li, Qardaji, Su) before KOV."""
    Ts = integer_grid("T", T, low=1)
    d = validate.delta("delta", delta)
    g = validate.probability("rate", rate, open_low=True)
    e0 = validate.real("eps0", eps0, low=0.0, low_open=True)
    b = _baseline(baseline)
    specs = [(f"({'ab'[i] if i < 2 else i + 1}) {fmt(EPS0, e0)}, $\\gamma = {tex_number(g)}$, $n = {tex_number(nn)}$",
              T_AXIS, Ts, "log", [(e0, nn, t, g, b, False) for t in Ts])
             for i, nn in enumerate(integer_grid("n", n, low=2))]
    panels, at_top = _composed_panels(specs, int(workers), d)
    notes = ["The subsampled routes are as in the paper (Section 4), not a theorem: Zhu and Wang's bound is for "
             "add/remove neighbours, the shuffle bounds for replace-one neighbours and floor(gamma n) users "
             "(status unproven; docs/errata.md#girgis2021-figure-5).",
             f"Orders 2..{SUBSAMPLED_TOP} (every integer, as the subsampling bound needs; the first author's notebook "
             "optimises over orders up to 1000 for this figure)."]
    if at_top:
        where = "; ".join(f"{panel} {label} at T = {T:g}" for panel, T, label in at_top)
        notes.append(f"Where the best order is the largest, {SUBSAMPLED_TOP} ({where}), larger orders could give a "
                     "lower route: not computed, as in the paper (the subsampling bound at order a sums a terms over "
                     "the base curve at every integer order up to a, and UB1's own cost grows faster than linearly "
                     "in the order).")
    return Plot(panels, notes)


# ------------------------------------------------------------------------------ Chen, Cao, Ge Figures 2-3
_CHEN = {"exact clone pair (Theorem 1)": "chen-exact", "Corollary 2": "chen-gdp", "Corollary 2, refined": "chen-gdp-refined",
         "Girgis et al. (5)": "girgis-upper-1", "Erlingsson et al. (9)": "erlingsson-rdp"}
_LOWER_6 = "lower bound (6) (Girgis et al. Corollary 3.5)"


def _chen_curves(e0, n, lam):
    from ..shuffle import rdp

    lam = np.atleast_1d(np.asarray(lam, dtype=float))
    exact, cor2, refined, g5, eq9 = _CHEN
    return {exact: rdp.clone_pair_rdp(e0, n, lam, rtol=1e-6).upper,
            cor2: rdp.CHEN_RDP.numpy()(e0, n, lam),
            refined: lam * rdp.CHEN_GDP_REFINED(e0, n) ** 2 / 2,
            g5: rdp.upper_1(e0, n, lam),
            eq9: rdp.erlingsson(e0, n, lam),
            _LOWER_6: rdp.COROLLARY_3_5.numpy()(e0, n, lam)}


def _chen_kinds() -> dict:
    from ..shuffle import rdp

    kinds = _method_kinds(_CHEN)
    return {**kinds, _LOWER_6: (str(rdp.COROLLARY_3_5.kind), str(rdp.COROLLARY_3_5.status), "girgis-corollary-3.5")}


def corollary_2_above_existing(panel: Panel) -> list[float]:
    """The x of a Chen, Cao, Ge figure's panel where Corollary 2 lies above Girgis et al.'s (5)
    (the existing bound it is claimed to improve on)."""
    by = {s.method_name: s for s in panel.series}
    c2, g5 = by["chen-gdp"], by["girgis-upper-1"]
    return [float(x) for x, a, b in zip(c2.x, c2.y, g5.y) if a > b]


def _chen_notes(panel: Panel, axis: str) -> list[str]:
    where = corollary_2_above_existing(panel)
    notes = []
    if where:
        notes.append(f"Disagreement with the paper: Corollary 2 lies above Girgis et al.'s (5) at {axis} = "
                     + ", ".join(f"{x:.3g}" for x in where) + ", against the paper's statement that it is tighter than "
                     "the existing bounds (Figures 2-3).")
    return notes


def chen_figure_2(eps0="0.1..4:8", n=1e4, order=4) -> Plot:
    """Chen, Cao, Ge (2024), Figure 2: RDP at lambda = ``order`` against eps0 (n = 1e4): the exact
    RDP of the clone pair, Corollary 2 and its refinement (approximations), Girgis et al.'s (5),
    Erlingsson et al.'s (9) and the lower bound (6) (Girgis et al. Corollary 3.5)."""
    es = sweep.parse_values("eps0", eps0, low=0.0, low_open=True)
    nn = validate.integer("n", n, low=2)
    panel = _panel(f"$\\lambda = {float(order):g}$, $n = {tex_number(nn)}$", EPS0, es,
                   _over(es, lambda e: _chen_curves(e, nn, float(order))), _chen_kinds(), "log")
    return Plot([panel], _chen_notes(panel, "ε0"))


def chen_figure_3(orders="2,3,4,6,8,12,16,24,32,48,64", eps0=2.0, n=1e4) -> Plot:
    """Chen, Cao, Ge (2024), Figure 3: RDP against lambda at eps0 = 2, n = 1e4 (curves as Figure 2)."""
    lam = np.unique(np.round(np.asarray(sweep.parse_values("orders", orders, low=1.0, low_open=True), dtype=float)))
    nn = validate.integer("n", n, low=2)
    values = {k: list(v) for k, v in _chen_curves(float(eps0), nn, lam).items()}
    panel = _panel(f"{fmt(EPS0, float(eps0))}, $n = {tex_number(nn)}$", LAM, lam, values, _chen_kinds(),
                   xticks=_pow2_ticks(lam))
    return Plot([panel], _chen_notes(panel, "λ"))
