"""Speed of the Delta-divergence, as ratios within one run.

1. Closed-form pairs (Gaussian, Laplace, randomized response; the numerical route, certified to
   1e-10): time per Delta, against Appendix B.3's method (a bounded scalar minimiser at each of
   N = 1/tol grid priors; tol = 1e-4, an underestimate by up to 1e-4) in the same run; and the
   closed forms (generated from their Formulas with mpmath). Target: under 10 ms.
2. Two piecewise-linear curves with n knots each: the exact merge over the union of kinks, for
   n = 1e3, 1e4, 1e5 (the ratio t(10 n)/t(n) shows linear growth), against the quadratic
   evaluation (every kink against every knot) at n = 1e3. Target: 1e5 knots under 100 ms.
3. End to end, 1000 composed steps of the subsampled Gaussian (sigma = 1, p = 0.01, interval
   1e-4) to a certified Delta against G_0.2 in both directions: the pessimistic and the
   (second-order) optimistic PLDs of both neighbouring directions, their Bayes error
   enclosures and the two maximisations; against dp_accounting's
   ``from_gaussian_mechanism(1, sampling_prob=0.01, value_discretization_interval=1e-4)
   .self_compose(1000)`` (both directions, pessimistic, connect-the-dots) in the same run.
   Target: ours <= 2x theirs.

Run: python benchmarks/bench_comparison.py [--full]   (--full: B.3 at the paper's tol = 1e-4, about
2-4 minutes; by default tol = 1e-3)
"""

import statistics
import sys
import time

import numpy as np

from dptheory import tradeoff as T
from dptheory.comparison import delta_divergence
from dptheory.comparison import bayes_error as be
from dptheory.mechanisms import RandomizedResponse


def timed(fn, repeat=5, summary=statistics.median):
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return summary(times), out


def best(fn, repeat=3):
    return timed(fn, repeat, min)


def sgm_end_to_end():
    from dptheory.comparison import delta_between, parse_mechanism

    sgm = parse_mechanism("sgm(sigma=1, p=0.01, steps=1000)")   # a fresh parse: nothing cached
    g = parse_mechanism("gaussian(mu=0.2)")
    return delta_between(sgm, g), delta_between(g, sgm)


def dp_accounting_pld():
    from dp_accounting.pld import privacy_loss_distribution as dpa

    return dpa.from_gaussian_mechanism(1.0, sampling_prob=0.01, value_discretization_interval=1e-4).self_compose(1000)


def paper_b3(f, g, tol):
    from scipy.optimize import minimize_scalar

    pis = np.linspace(0, 1, int(np.ceil(1 / tol)))

    def rmin(c):
        return np.array([minimize_scalar(lambda a: p * a + (1 - p) * float(c(a)), bounds=(0, 1)).fun for p in pis])

    return float(np.max(rmin(f) - rmin(g)))


def random_curve(rng, n):
    p = rng.gamma(0.7, size=n)
    q = rng.gamma(0.7, size=n)
    return T.from_pmfs(p / p.sum(), q / q.sum())


def main(full: bool) -> None:
    g1, lap1, rr1 = T.gaussian(1.0), T.laplace(1.0), RandomizedResponse(1.0).tradeoff()
    delta_divergence(g1, lap1, method="numeric")  # warm-up (imports)
    print("1. closed-form pairs, certified to 1e-10 (numerical route)")
    print(f"   {'pair':<28}{'ms':>8}{'width':>12}{'value':>16}")
    for name, f, g in (("Gaussian(1) || Laplace(1)", g1, lap1), ("Laplace(1) || Gaussian(1)", lap1, g1),
                       ("Gaussian(1) || Gaussian(2)", g1, T.gaussian(2.0)), ("RR(1) || Gaussian(1)", rr1, g1),
                       ("Gaussian(1) || RR(1)", g1, rr1)):
        t, res = timed(lambda: delta_divergence(f, g, method="numeric", tol=1e-11))
        print(f"   {name:<28}{t * 1e3:8.2f}{res.upper - res.lower:12.2e}{res.upper:16.12f}")
    tol = 1e-4 if full else 1e-3
    t_b3, v_b3 = timed(lambda: paper_b3(lap1, g1, tol), repeat=1)
    t_ours, res = timed(lambda: delta_divergence(lap1, g1, method="numeric", tol=1e-11))
    print(f"   Appendix B.3 grid (tol {tol:g}): {t_b3:.2f} s, value {v_b3:.10f} (below the certified lower end by "
          f"{res.lower - v_b3:.2e}); ours {t_ours * 1e3:.2f} ms: {t_b3 / t_ours:.0f}x faster")

    print("\n2. piecewise-linear curves with n knots each (exact merge)")
    rng = np.random.default_rng(0)
    prev = None
    for n in (1000, 10000, 100000):
        f, g = random_curve(rng, n), random_curve(rng, n)
        t, res = timed(lambda: delta_divergence(f, g))
        ratio = "" if prev is None else f"  t/t(n/10) = {t / prev:.1f}"
        print(f"   n = {n:>6}: {t * 1e3:8.2f} ms, width {res.upper - res.lower:.1e}{ratio}")
        prev = t
        if n == 1000:
            kinks = np.unique(np.concatenate([be.pl_breakpoints(f), be.pl_breakpoints(g)]))

            def quadratic():
                ra = np.min(kinks[:, None] * f.knots_alpha[None, :] + (1 - kinks[:, None]) * f.knots_beta[None, :], axis=1)
                rb = np.min(kinks[:, None] * g.knots_alpha[None, :] + (1 - kinks[:, None]) * g.knots_beta[None, :], axis=1)
                return float(np.max(ra - rb))

            tq, vq = timed(quadratic, repeat=3)
            print(f"   quadratic reference at n = 1000: {tq * 1e3:.2f} ms ({tq / t:.1f}x the merge), same value: "
                  f"{res.lower <= vq <= res.upper}")

    print("\n   closed forms (Formula, mpmath), per Delta:")
    from dptheory.comparison import parse_mechanism
    from dptheory.comparison.divergence import delta_between

    for a, b in (("gaussian(mu=1)", "gaussian(mu=2)"), ("laplace(eps=1)", "laplace(eps=2)"), ("rr(eps=1)", "rr(eps=2)"),
                 ("gaussian(mu=1)", "rr(eps=1)")):
        ma, mb = parse_mechanism(a), parse_mechanism(b)
        delta_between(ma, mb)  # warm-up: the Formula's mpmath function is generated once
        t, res = timed(lambda: delta_between(ma, mb))
        print(f"   {a} || {b}: {t * 1e3:.2f} ms, [{res.lower:.12g}, {res.upper:.12g}]")

    print("\n3. subsampled Gaussian, sigma = 1, p = 0.01, 1000 steps, interval 1e-4: certified Delta against G_0.2")
    sgm_end_to_end()  # warm-up (imports)
    t_ours, (fw, bw) = best(sgm_end_to_end)
    t_theirs, _ = best(dp_accounting_pld)
    print(f"   ours, end to end (4 PLDs, enclosures, Delta both ways): {t_ours:7.3f} s")
    print(f"   dp_accounting, PLD of both directions composed:          {t_theirs:7.3f} s")
    print(f"   ratio ours / theirs: {t_ours / t_theirs:.2f}   (target <= 2)")
    print(f"   Delta(sgm || G) in [{fw.lower:.3e}, {fw.upper:.3e}], Delta(G || sgm) in [{bw.lower:.6e}, {bw.upper:.6e}]")


if __name__ == "__main__":
    main("--full" in sys.argv)
