"""Renyi DP of the shuffle model: the RDP curves of every method (upper bounds, lower bounds and
approximations), and the figures of Girgis et al. (CCS 2021, Figures 2-5) and Chen, Cao, Ge
(ICASSP 2024, Figures 2-3), computed by the toolkit with the parameters the papers' captions and
experiment sections state (the data code of derivations/rdp_figures.py, whose claims
tests/figures/test_rdp.py asserts).
"""

from __future__ import annotations

import numpy as np

from .. import sweep, validate
from ..plots import Panel, Series
from ..validate import DomainError


def curves(eps0="1", n=1e4, orders="2..64", methods="", compositions=1) -> list[Panel]:
    """The RDP curve of every method of :mod:`dptheory.shuffle.rdp` (or those named) against the
    order, a panel per eps0: upper bounds by their upper end, lower bounds by their lower end,
    approximations (not bounds) dashed; the shaded band runs between the best proven bounds."""
    from ..results import Curve
    from ..shuffle import rdp
    from ..rdp import parse_orders

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
            series.append(Series(c.method, c.grid, y, str(c.kind), str(c.status)))
            if str(c.status) == "proven":
                at = np.searchsorted(o, c.grid)
                if str(c.kind) in ("upper", "exact"):
                    hi[at] = np.minimum(hi[at], c.upper)
                if str(c.kind) in ("lower", "exact"):
                    lo[at] = np.maximum(lo[at], c.lower)
        T = f", T = {compositions}" if compositions != 1 else ""
        panels.append(Panel(f"shuffle RDP: eps0 = {e0:g}, n = {float(n):g}{T}", "order lambda", "RDP epsilon(lambda)",
                            series, xscale="log", yscale="log",
                            band=(o, np.where(lo > 0, lo, np.nan), np.where(np.isfinite(hi), hi, np.nan),
                                  "between the proven bounds")))
    return panels


def _over(xs, fn) -> dict:
    """{label: [value at each x]} from ``fn(x) -> {label: value}``."""
    cols = [fn(x) for x in xs]
    return {k: [float(np.atleast_1d(c[k])[0]) for c in cols] for k in cols[0]}


def _method_kinds(labels: dict) -> dict:
    """{label: (kind, status)} of the RDP methods the labels stand for (their one definition)."""
    from ..shuffle.rdp import RDP_METHODS

    return {label: (str(RDP_METHODS[slug].kind), str(RDP_METHODS[slug].status())) for label, slug in labels.items()}


def _panel(title, xlabel, xs, values: dict, kinds: dict, xscale="log", yscale="log",
           ylabel="RDP epsilon(lambda)") -> Panel:
    series = [Series(label, list(xs), list(v), *kinds[label]) for label, v in values.items()]
    return Panel(title, xlabel, ylabel, series, xscale=xscale, yscale=yscale)


def _results_panel(title, xlabel, xs, fn, xscale="log") -> Panel:
    """A panel of epsilons from ``fn(x) -> {label: Result}``: each line keeps its result's kind
    and status and shows its conservative end."""
    cols = [fn(x) for x in xs]
    series = []
    for label in cols[0]:
        first = cols[0][label]
        series.append(Series(label, list(xs), [c[label].value for c in cols], str(first.kind), str(first.status)))
    return Panel(title, xlabel, "central epsilon", series, xscale=xscale, yscale="log")


def _g2_curves(e0, n, lam):
    from ..shuffle import rdp

    lam = np.atleast_1d(np.asarray(lam, dtype=float))
    return {"UB1, Theorem 3.1": rdp.upper_1(e0, n, lam),
            "UB2, Theorem 3.3": rdp.upper_2(e0, n, lam),
            "LB, Theorem 3.4 (exact sum)": rdp.lower_bound(e0, n, lam, rtol=1e-4).lower,
            "eq. (9), Erlingsson et al.": rdp.erlingsson(e0, n, lam)}


_G2_METHODS = {"UB1, Theorem 3.1": "girgis-upper-1", "UB2, Theorem 3.3": "girgis-upper-2",
               "LB, Theorem 3.4 (exact sum)": "girgis-lower", "eq. (9), Erlingsson et al.": "erlingsson-rdp"}


def girgis_figure_2(orders="2,5,10,20,50,100,200,500,1000", n="1e3..1e7", eps0="0.1,0.5,1,1.5,2,2.5,3,4",
                    order=100) -> list[Panel]:
    """Girgis et al. (2021), Figure 2: RDP of one shuffle by UB1 (Theorem 3.1), UB2 (Theorem 3.3), the
    lower bound (Theorem 3.4, an exact sum) and eq. (9); panels (a)-(f): against lambda at eps0 = 0.1
    and 3 (n = 1e4), against n at lambda = ``order`` (eps0 = 0.1, 3), against eps0 at lambda =
    ``order`` (n = 1e4, 1e6)."""
    lam = np.asarray([float(v) for v in sweep.parse_values("orders", orders, low=1.0, low_open=True)])
    ns = sweep.parse_values("n", n, integer=True, low=2)
    es = sweep.parse_values("eps0", eps0, low=0.0, low_open=True)
    k = float(sweep.parse_values("order", order, low=1.0, low_open=True)[0])
    K = _method_kinds(_G2_METHODS)
    return [
        _panel("Figure 2a: eps0 = 0.1, n = 1e4", "lambda", lam, {a: list(v) for a, v in _g2_curves(0.1, 10**4, lam).items()}, K),
        _panel(f"Figure 2b: eps0 = 0.1, lambda = {k:g}", "n", ns, _over(ns, lambda x: _g2_curves(0.1, x, k)), K),
        _panel(f"Figure 2c: n = 1e4, lambda = {k:g}", "eps0", es, _over(es, lambda x: _g2_curves(x, 10**4, k)), K, "linear"),
        _panel("Figure 2d: eps0 = 3, n = 1e4", "lambda", lam, {a: list(v) for a, v in _g2_curves(3.0, 10**4, lam).items()}, K),
        _panel(f"Figure 2e: eps0 = 3, lambda = {k:g}", "n", ns, _over(ns, lambda x: _g2_curves(3.0, x, k)), K),
        _panel(f"Figure 2f: n = 1e6, lambda = {k:g}", "eps0", es, _over(es, lambda x: _g2_curves(x, 10**6, k)), K, "linear"),
    ]


_G3_ROUTES = {"ub1": "UB1 route", "lb": "LB route", "clones": "clones", "blanket-bennett": "blanket-bennett"}


def girgis_figure_3(n="1e3..1e7", eps0="0.25,0.5,1,1.5,2,2.5,3", delta=1e-6, methods="ub1,lb,clones,blanket-bennett"):
    """Girgis et al. (2021), Figure 3: one shuffle at delta = 1e-6, epsilon by the RDP routes
    (UB1 through Lemma 2.1; the lower bound through it, which is no bound on epsilon: drawn as an
    approximation) against the clone bound of Feldman et al. and the privacy blanket (Bennett).
    Panels: against n at eps0 = 0.1 and 3, against eps0 at n = 1e4 and 1e5. The LB route is slow
    (seconds per point)."""
    from .. import rdp as rdp_module, shuffle
    from ..results import Kind, Result, Status
    from ..shuffle import randomizers as R, rdp

    wanted = [m.strip() for m in methods.split(",") if m.strip()]
    bad = [m for m in wanted if m not in _G3_ROUTES]
    if bad or not wanted:
        raise DomainError(f"methods = {methods!r} is invalid: must be a subset of {', '.join(_G3_ROUTES)}")
    d = float(delta)

    def row(e0, nn):
        out = {}
        for m in wanted:
            if m == "ub1":
                res = rdp.rdp_route_epsilon(e0, nn, 1, d)
            elif m == "lb":
                v = rdp_module.epsilon_from_rdp_grid(lambda o: rdp.lower_bound(e0, nn, o, rtol=1e-4).lower, d).upper
                res = Result("epsilon", v, v, Kind.APPROXIMATION, Status.NOT_A_BOUND, "lb-route", "Girgis et al. (2021), Figure 3")
            else:
                res = shuffle.epsilon(R.general_ldp(e0), nn, d, method=m)
            out[_G3_ROUTES[m]] = res
        return out

    ns = sweep.parse_values("n", n, integer=True, low=2)
    es = sweep.parse_values("eps0", eps0, low=0.0, low_open=True)
    n3 = [x for x in ns if x >= 10**4] or ns
    return [_results_panel(f"Figure 3a: eps0 = 0.1, delta = {d:g}", "n", ns, lambda x: row(0.1, x)),
            _results_panel(f"Figure 3b: n = 1e4, delta = {d:g}", "eps0", es, lambda x: row(x, 10**4), "linear"),
            _results_panel(f"Figure 3c: eps0 = 3, delta = {d:g}", "n", n3, lambda x: row(3.0, x)),
            _results_panel(f"Figure 3d: n = 1e5, delta = {d:g}", "eps0", es, lambda x: row(x, 10**5), "linear")]


def _composed(eps0, n, T, delta, rate, notebook: bool) -> dict:
    from ..shuffle import rdp

    out = {"UB1 route": rdp.rdp_route_epsilon(eps0, n, T, delta, rate=rate),
           "clones + KOV": rdp.fmt_kov_epsilon(eps0, n, T, delta, rate=rate)}
    if notebook:
        out["clones + KOV, notebook protocol"] = rdp.fmt_kov_epsilon(eps0, n, T, delta, rate=rate, protocol="notebook")
    return out


def girgis_figure_4(T="1,10,100,1000,10000", eps0="0.5,2", n=1e6, delta=1e-8, notebook=True) -> list[Panel]:
    """Girgis et al. (2021), Figure 4 (panels a and d): T adaptive shuffles at delta = 1e-8, the
    UB1 route against the clone bound composed by the optimal composition theorem (KOV), exactly
    and by the first author's notebook protocol; a panel per eps0."""
    Ts = sweep.parse_values("T", T, integer=True, low=1)
    nn = validate.integer("n", n, low=2)
    return [_results_panel(f"Figure 4: eps0 = {e0:g}, n = {nn:g}, delta = {float(delta):g}", "T", Ts,
                           lambda t: _composed(e0, nn, t, float(delta), 1.0, notebook))
            for e0 in sweep.parse_values("eps0", eps0, low=0.0, low_open=True)]


def girgis_figure_5(T="10,100,1000,10000", n="1e6,1e7", eps0=3.0, rate=1e-3, delta=1e-8, notebook=True) -> list[Panel]:
    """Girgis et al. (2021), Figure 5: as Figure 4 with Poisson subsampling at ``rate`` (gamma =
    1e-3), eps0 = 3; a panel per n."""
    Ts = sweep.parse_values("T", T, integer=True, low=1)
    return [_results_panel(f"Figure 5: eps0 = {float(eps0):g}, gamma = {float(rate):g}, n = {nn:g}", "T", Ts,
                           lambda t: _composed(float(eps0), nn, t, float(delta), float(rate), notebook))
            for nn in sweep.parse_values("n", n, integer=True, low=2)]


def _chen_curves(e0, n, lam):
    from ..shuffle import rdp

    lam = np.atleast_1d(np.asarray(lam, dtype=float))
    return {"exact clone pair": rdp.clone_pair_rdp(e0, n, lam, rtol=1e-6).upper,
            "Corollary 2": rdp.CHEN_RDP.numpy()(e0, n, lam),
            "Corollary 2, refined": lam * rdp.CHEN_GDP_REFINED(e0, n) ** 2 / 2,
            "Girgis (5)": rdp.upper_1(e0, n, lam),
            "Corollary 3.5": rdp.COROLLARY_3_5.numpy()(e0, n, lam)}


def _chen_kinds() -> dict:
    from ..shuffle import rdp

    kinds = _method_kinds({"exact clone pair": "chen-exact", "Corollary 2": "chen-gdp", "Corollary 2, refined": "chen-gdp-refined",
                           "Girgis (5)": "girgis-upper-1"})
    return {**kinds, "Corollary 3.5": (str(rdp.COROLLARY_3_5.kind), str(rdp.COROLLARY_3_5.status))}


def chen_figure_2(eps0="0.1..4:5", n=1e4, order=4) -> list[Panel]:
    """Chen, Cao, Ge (2024), Figure 2: RDP at lambda = ``order`` against eps0 (n = 1e4): the exact
    RDP of the clone pair, Corollary 2 and its refinement (approximations), Girgis et al.'s (5) and
    the lower bound (6) (Corollary 3.5)."""
    es = sweep.parse_values("eps0", eps0, low=0.0, low_open=True)
    nn = validate.integer("n", n, low=2)
    return [_panel(f"Chen, Cao, Ge (2024), Figure 2: lambda = {order}, n = {nn:g}", "eps0", es,
                   _over(es, lambda e: _chen_curves(e, nn, float(order))), _chen_kinds(), "linear")]


def chen_figure_3(orders="2,3,4,6,8,12,16,24,32,48,64", eps0=2.0, n=1e4) -> list[Panel]:
    """Chen, Cao, Ge (2024), Figure 3: RDP against lambda at eps0 = 2, n = 1e4 (curves as Figure 2)."""
    lam = np.asarray(sweep.parse_values("orders", orders, low=1.0, low_open=True), dtype=float)
    nn = validate.integer("n", n, low=2)
    values = {k: list(v) for k, v in _chen_curves(float(eps0), nn, lam).items()}
    return [_panel(f"Chen, Cao, Ge (2024), Figure 3: eps0 = {float(eps0):g}, n = {nn:g}", "lambda", lam, values, _chen_kinds())]
