"""Speed of the certified shuffle bound, as ratios against the straightforward method in the
same run.

Task: general eps0-LDP randomizer, eps0 = 1, delta = 1e-8: an epsilon bracket of
relative width <= 1e-3. Baseline: Algorithm 1 of Wang et al. as published, i.e. T = 20 bisection
steps each summing Theorem 4.8 over all n clone counts (O(n) per step), vectorised with numpy.

Second section: the variation-ratio lower bound (Wang et al. Theorem 5.1), one delta(eps)
evaluation and one epsilon(delta) bracket, against the previous implementation (every victim pair
among the first four of largest total variation, every x_star, both directions, each refined to
the tolerance: ``baseline_lower_log_delta`` below, kept verbatim) in the same run.

Run: python benchmarks/bench_shuffle.py  (``--lower`` for the second section only)
"""

import math
import statistics
import sys
import time

import numpy as np

from dptheory import shuffle
from dptheory.shuffle import randomizers as R
from dptheory.shuffle import METHODS
from dptheory.shuffle import variation_ratio as vr
from dptheory.results import Enclosure


def timed(fn, repeat=5):
    times = []
    out = None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def baseline_algorithm_1(n, eps0, delta, iterations=20):
    p = math.exp(eps0)
    beta = (p - 1) / (p + 1)
    lo, hi = 0.0, eps0
    for _ in range(iterations):
        mid = 0.5 * (lo + hi)
        if vr.theorem_4_8(n, p, beta, p, mid) > delta:
            lo = mid
        else:
            hi = mid
    return hi


def main():
    g = R.general_ldp(1.0)
    delta = 1e-8
    print("certified epsilon bracket, general eps0 = 1 randomizer, delta = 1e-8, relative width <= 1e-3")
    print(f"{'n':>8s} {'ms (median of 5)':>18s} {'epsilon lower':>16s} {'epsilon upper':>16s} {'rel. width':>11s}")
    ours = {}
    for n in (10**4, 10**6, 10**8, 10**10, 10**12):
        t, res = timed(lambda: shuffle.epsilon(g, n, delta, method="variation-ratio", rtol=1e-3))
        ours[n] = t
        print(f"{n:8.0e} {1000 * t:18.1f} {res.lower:16.8g} {res.upper:16.8g} {res.relative_width():11.2e}")
    print("\nbaseline: Algorithm 1 as published (T = 20, O(n) Theorem 4.8 sum per step)")
    print(f"{'n':>8s} {'baseline ms':>12s} {'ours ms':>9s} {'ratio':>8s} {'baseline eps':>14s}")
    for n in (10**4, 10**5, 10**6):
        t_base, eps_base = timed(lambda: baseline_algorithm_1(n, 1.0, delta), repeat=1 if n >= 10**6 else 3)
        t_ours, _ = timed(lambda: shuffle.epsilon(g, n, delta, method="variation-ratio", rtol=1e-3), repeat=3)
        print(f"{n:8.0e} {1000 * t_base:12.1f} {1000 * t_ours:9.1f} {t_base / t_ours:8.1f} {eps_base:14.8g}")
    print(f"\ncost at n = 1e12 relative to n = 1e8: {ours[10**12] / ours[10**8]:.2f}")


def baseline_lower_log_delta(matrix, others, epsilon, *, rtol=1e-6, exact=None):
    """The lower bound as it was at commit eeac60f: 80 pair evaluations for GRR on 10
    options (``exact``, the exact pmfs the current code may use for its mpmath path, is ignored)."""
    m = np.asarray(matrix, dtype=float)
    rows = m.shape[0]
    tv = {(a, b): 0.5 * float(np.abs(m[a] - m[b]).sum()) for a in range(rows) for b in range(rows) if a != b}
    top = max(tv.values())
    victims = [pair_ for pair_, t in tv.items() if t >= top * (1 - 1e-12)][:4]
    best, where, top = -math.inf, None, -math.inf
    for x0, x1 in victims:
        for xs in range(rows):
            pr = vr.lower_bound_pair(m, x0, x1, xs, others)
            for direction in (pr, pr.reversed()):
                enc = direction.log_delta(epsilon, rtol=rtol)
                top = max(top, enc.log_upper)
                if enc.log_lower > best:
                    best, where = enc.log_lower, (x0, x1, xs)
    return Enclosure(best, top), where


def lower_bound_section():
    """Target: the lower bound answers in under 1 s at any n."""
    method = METHODS["variation-ratio-lower"]
    cases = [("grr d=3", R.grr(1.0, 3)), ("grr d=10", R.grr(1.0, 10)), ("general", R.general_ldp(1.0))]
    delta = 1e-8
    print("\nvariation-ratio-lower, eps0 = 1: delta at eps (rtol 1e-6) and epsilon at delta = 1e-8 (rtol 1e-3)")
    print(f"{'randomizer':>10s} {'n':>6s} {'eps':>10s} {'before s':>9s} {'after s':>8s} {'ratio':>7s}"
          f" {'same lower end':>14s} {'epsilon s':>9s}")
    for name, rz in cases:
        matrix = rz.pmfs if rz.pmfs is not None else R.binary_rr(1.0).pmfs
        for n in (10**3, 10**6, 10**12):
            vr._lower_log_delta.cache_clear()
            t_eps, res = timed(lambda: method.epsilon(rz, n, delta), repeat=1)
            for e in (res.lower, 0.1):
                vr._lower_log_delta.cache_clear()
                t_new, new = timed(lambda: vr.lower_log_delta(matrix, n - 1, e, rtol=1e-6), repeat=1)
                t_old, old = timed(lambda: baseline_lower_log_delta(matrix, n - 1, e, rtol=1e-6), repeat=1)
                same = abs(new[0].log_lower - old[0].log_lower) <= 1e-9 * max(1.0, abs(old[0].log_lower)) \
                    or new[0].log_lower == old[0].log_lower
                print(f"{name:>10s} {n:6.0e} {e:10.4g} {t_old:9.3f} {t_new:8.3f} {t_old / t_new:7.1f} {str(same):>14s}"
                      f" {t_eps:9.3f}")
    rz = R.grr(1.0, 10)
    vr._lower_log_delta.cache_clear()
    t_new, _ = timed(lambda: method.epsilon(rz, 10**6, delta), repeat=1)
    saved = vr.lower_log_delta
    vr.lower_log_delta = baseline_lower_log_delta
    try:
        t_old, _ = timed(lambda: method.epsilon(rz, 10**6, delta), repeat=1)
    finally:
        vr.lower_log_delta = saved
    print(f"epsilon bracket, grr d=10, n=1e6, delta=1e-8: before {t_old:.2f} s, after {t_new:.2f} s, ratio {t_old / t_new:.1f}")


if __name__ == "__main__":
    if "--lower" not in sys.argv:
        main()
    lower_bound_section()
