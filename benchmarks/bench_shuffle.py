"""Speed of the certified shuffle bound, as ratios against the straightforward method in the
same run.

Task (issue 3): general eps0-LDP randomizer, eps0 = 1, delta = 1e-8: an epsilon bracket of
relative width <= 1e-3. Baseline: Algorithm 1 of Wang et al. as published, i.e. T = 20 bisection
steps each summing Theorem 4.8 over all n clone counts (O(n) per step), vectorised with numpy.

Run: python benchmarks/bench_shuffle.py
"""

import math
import statistics
import time

from dptheory import shuffle
from dptheory.shuffle import randomizers as R
from dptheory.shuffle import variation_ratio as vr


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


if __name__ == "__main__":
    main()
