"""Data of Girgis et al. (CCS 2021) Figures 2-5 and Chen, Cao, Ge (2024) Figures 2-3, computed by
the toolkit (the parameters are those of the captions and of the papers' Section 4). Plots them
when matplotlib is present. The claims these figures support are asserted in
tests/figures/test_rdp.py.

Each panel is printed as a plain table and as a LaTeX (booktabs) tabular, and checked: in every
row each lower bound is at most each upper bound and each exact value of a dominating pair, and every
value is finite and non-negative ("check <panel>: ok"); the script exits 1 if a check fails.

Run: python derivations/rdp_figures.py [--quick] [--figures 2,3,4,chen] [--plot FILE.png]
"""

import argparse
import math

import numpy as np

from _derivation import Checks, latex_number, latex_table, math_title
from dptheory import rdp as rdp_module, shuffle
from dptheory.shuffle import randomizers as R, rdp


def table(title: str, xlabel: str, xs, curves: dict) -> tuple:
    title = math_title(title)
    print(f"\n{title}")
    print(f"{xlabel:>8s}  " + "  ".join(f"{k:>22s}" for k in curves))
    for j, x in enumerate(xs):
        print(f"{x:8.3g}  " + "  ".join(f"{v[j]:22.5g}" for v in curves.values()))
    header = ["$" + {"lambda": "\\lambda", "eps0": "\\epsilon_0"}.get(xlabel, xlabel) + "$"] + list(curves)
    rows = [[latex_number(float(x))] + [latex_number(float(v[j])) for v in curves.values()] for j, x in enumerate(xs)]
    print(latex_table(header, rows, caption=title))
    return title, (xlabel, {k: (list(xs), list(v)) for k, v in curves.items()})


def check_panel(curves: dict) -> bool:
    """In every row: each lower bound (label ending "(lower)") is at most each upper bound and each
    exact value of a dominating pair (labels ending "(upper)", "(exact)"; the exact RDP of the clone
    pair bounds the mechanism's above), and every value is finite and >= 0."""
    def of(kind):
        return [v for k, v in curves.items() if k.endswith(f"({kind})")]

    lowers, exacts, uppers = of("lower"), of("exact"), of("upper")
    ok = True
    for j in range(len(next(iter(curves.values())))):
        values = [float(v[j]) for v in curves.values()]
        ok &= all(math.isfinite(x) and x >= 0 for x in values)
        lo = max((float(v[j]) for v in lowers), default=-math.inf)
        hi = min((float(v[j]) for v in uppers + exacts), default=math.inf)
        ok &= lo <= hi
    return bool(ok)


def figure_2(quick: bool) -> list:
    """RDP of one shuffle: UB1 (Theorem 3.1), UB2 (Theorem 3.3), lower bound (Theorem 3.4, exact), eq. (9)."""
    out = []
    lam_grid = np.array([2, 5, 10, 20, 50, 100] if quick else [2, 5, 10, 20, 50, 100, 200, 500, 1000])
    n_grid = np.array([10**3, 10**4, 10**5, 10**6] if quick else [10**3, 10**4, 10**5, 10**6, 10**7])
    e_grid = np.array([0.1, 0.5, 1.0, 2.0, 3.0] if quick else [0.1, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0])

    def curves(e0, n, lam):
        lam = np.atleast_1d(lam)
        return {"UB1 (upper)": rdp.upper_1(e0, n, lam), "UB2 (upper)": rdp.upper_2(e0, n, lam.astype(float)),
                "LB exact (lower)": rdp.lower_bound(e0, n, lam.astype(float), rtol=1e-4).lower,
                "eq. (9) (upper)": rdp.erlingsson(e0, n, lam.astype(float))}

    def over(xs, fn):
        cols = [fn(x) for x in xs]
        return {k: [c[k][0] for c in cols] for k in cols[0]}

    out.append(table("Figure 2a: eps0 = 0.1, n = 1e4", "lambda", lam_grid, curves(0.1, 10**4, lam_grid)))
    out.append(table("Figure 2b: eps0 = 0.1, lambda = 100", "n", n_grid, over(n_grid, lambda n: curves(0.1, int(n), 100))))
    out.append(table("Figure 2c: n = 1e4, lambda = 100", "eps0", e_grid, over(e_grid, lambda e: curves(e, 10**4, 100))))
    out.append(table("Figure 2d: eps0 = 3, n = 1e4", "lambda", lam_grid, curves(3.0, 10**4, lam_grid)))
    out.append(table("Figure 2e: eps0 = 3, lambda = 100", "n", n_grid, over(n_grid, lambda n: curves(3.0, int(n), 100))))
    out.append(table("Figure 2f: n = 1e6, lambda = 100", "eps0", e_grid, over(e_grid, lambda e: curves(e, 10**6, 100))))
    return out


def figure_3(quick: bool) -> list:
    """One shuffle, delta = 1e-6: the RDP routes (UB1 and LB through Lemma 2.1) against the clone
    bound of Feldman et al. (exact, certified) and the privacy blanket (Bennett)."""
    d = 1e-6

    def row(e0, n):
        rz = R.general_ldp(e0)
        lb_route = rdp_module.epsilon_from_rdp_grid(lambda o: rdp.lower_bound(e0, n, o, rtol=1e-4).lower, d).upper
        return {"UB1 route (upper)": rdp.rdp_route_epsilon(e0, n, 1, d).upper,
                "LB route (not a bound)": lb_route,
                "clones (upper)": shuffle.epsilon(rz, n, d, method="clones").upper,
                "blanket-bennett (upper)": shuffle.epsilon(rz, n, d, method="blanket-bennett").upper}

    def over(xs, fn):
        cols = [fn(x) for x in xs]
        return {k: [c[k] for c in cols] for k in cols[0]}

    n_grid = [10**3, 10**4, 10**5, 10**6] if quick else [10**3, 10**4, 10**5, 10**6, 10**7]
    e_grid = [0.5, 1.0, 2.0, 3.0] if quick else [0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0]
    out = [table("Figure 3a: eps0 = 0.1", "n", n_grid, over(n_grid, lambda n: row(0.1, n))),
           table("Figure 3b: n = 1e4", "eps0", e_grid, over(e_grid, lambda e: row(e, 10**4))),
           table("Figure 3c: eps0 = 3", "n", n_grid[1:], over(n_grid[1:], lambda n: row(3.0, n))),
           table("Figure 3d: n = 1e5", "eps0", e_grid, over(e_grid, lambda e: row(e, 10**5)))]
    return out


def figure_4_5(quick: bool) -> list:
    """T-fold composition, delta = 1e-8 (Figure 4) and with Poisson subsampling gamma = 1e-3 (Figure 5):
    UB1 route against the clone bound + KOV (exact, and the first author's notebook protocol)."""
    d = 1e-8
    T_grid = [1, 10, 100, 10**3, 10**4] if quick else [1, 3, 10, 30, 100, 10**3, 10**4, 10**5]

    def row(e0, n, T, rate=1.0):
        return {"UB1 route (upper)": rdp.rdp_route_epsilon(e0, n, T, d, rate=rate).upper,
                "clones+KOV (upper)": rdp.fmt_kov_epsilon(e0, n, T, d, rate=rate).upper,
                "clones+KOV notebook": rdp.fmt_kov_epsilon(e0, n, T, d, rate=rate, protocol="notebook").upper}

    def over(xs, fn):
        cols = [fn(x) for x in xs]
        return {k: [c[k] for c in cols] for k in cols[0]}

    out = [table("Figure 4a: eps0 = 0.5, n = 1e6", "T", T_grid + [10**5], over(T_grid + [10**5], lambda T: row(0.5, 10**6, T))),
           table("Figure 4d: eps0 = 2, n = 1e6", "T", T_grid, over(T_grid, lambda T: row(2.0, 10**6, T)))]
    if not quick:
        n_grid = [10**4, 10**5, 10**6, 10**7]
        e_grid = [0.25, 0.5, 1.0, 2.0, 3.0]
        out += [table("Figure 4b: eps0 = 0.5, T = 1e4", "n", n_grid, over(n_grid, lambda n: row(0.5, n, 10**4))),
                table("Figure 4c: n = 1e5, T = 1e4", "eps0", e_grid, over(e_grid, lambda e: row(e, 10**5, 10**4))),
                table("Figure 4e: eps0 = 2, T = 1e4", "n", n_grid, over(n_grid, lambda n: row(2.0, n, 10**4))),
                table("Figure 4f: n = 1e6, T = 1e4", "eps0", e_grid, over(e_grid, lambda e: row(e, 10**6, 10**4)))]
    T5 = [10, 100, 10**3, 10**4] if quick else [10, 100, 10**3, 10**4, 10**5]
    out += [table("Figure 5a: eps0 = 3, gamma = 1e-3, n = 1e6", "T", T5, over(T5, lambda T: row(3.0, 10**6, T, 1e-3))),
            table("Figure 5b: eps0 = 3, gamma = 1e-3, n = 1e7", "T", T5, over(T5, lambda T: row(3.0, 10**7, T, 1e-3)))]
    return out


def chen_figures(quick: bool) -> list:
    """Chen et al. Figure 2 (lambda = 4, n = 1e4, over eps0) and Figure 3 (eps0 = 2, n = 1e4, over
    lambda): exact RDP of the clone pair, Corollary 2 and its refinement (approximations), Girgis
    et al.'s (5) and the lower bound (6) (Corollary 3.5)."""
    n = 10**4

    def curves(e0, lam):
        lam = np.atleast_1d(np.asarray(lam, dtype=float))
        hi = rdp.clone_pair_rdp(e0, n, lam, rtol=1e-6).upper
        return {"exact pair (exact)": hi, "Corollary 2 (approximation)": rdp.CHEN_RDP.numpy()(e0, n, lam),
                "refined (approximation)": lam * rdp.CHEN_GDP_REFINED(e0, n) ** 2 / 2,
                "Girgis Theorem 3.1 (upper)": rdp.upper_1(e0, n, lam), "Corollary 3.5 (lower)": rdp.COROLLARY_3_5.numpy()(e0, n, lam)}

    e_grid = [0.1, 0.5, 1.0, 2.0, 3.0, 4.0] if quick else list(np.round(np.arange(0.1, 4.01, 0.3), 2))
    cols = [curves(e, 4) for e in e_grid]
    lam_grid = [2, 4, 8, 16, 32, 64] if quick else [2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64]
    return [table("Chen Figure 2: lambda = 4, n = 1e4", "eps0", e_grid, {k: [c[k][0] for c in cols] for k in cols[0]}),
            table("Chen Figure 3: eps0 = 2, n = 1e4", "lambda", lam_grid, curves(2.0, lam_grid))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="coarser grids, fewer panels")
    parser.add_argument("--figures", default="2,3,4,chen",
                        help="which: 2, 3, 4 (Girgis et al. Figures 4-5), chen (Chen et al. Figures 2-3)")
    parser.add_argument("--plot", help="write a PNG of all panels")
    args = parser.parse_args()
    makers = {"2": figure_2, "3": figure_3, "4": figure_4_5, "chen": chen_figures}
    wanted = args.figures.split(",")
    unknown = sorted(set(wanted) - set(makers))
    if unknown:
        parser.error(f"--figures: unknown {unknown}, choose from {sorted(makers)}")
    panels = dict(sum((makers[w](args.quick) for w in wanted), []))
    check = Checks()
    print()
    for title, (_, curves) in panels.items():
        check(title.split(":")[0].replace(" ", "-").lower(), check_panel({k: ys for k, (_, ys) in curves.items()}))
    if args.plot:
        from dptheory.plots import line_panels

        line_panels(panels, args.plot)
        print("wrote", args.plot)
    check.finish()


if __name__ == "__main__":
    main()
