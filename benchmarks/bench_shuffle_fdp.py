"""Speed of the shuffle f-DP routines (Wang et al. 2023, Corollary 4.3 and Theorem 4.2), as ratios against
the straightforward O(n) computation in the same run.

1. delta(eps) of Corollary 4.3 (corrected), general eps0-LDP randomizer, eps0 = 1, the paper's pair,
   at eps = 5 mu (mu the asymptotic GDP parameter; delta around 1e-10) and at the fixed
   eps = 0.03, 0.1, 0.5 (delta from e^-25 down to e^-4.6e10: far in the tail at large n): ours is
   the certified peak-located bucketed sum (one call gives both ends); the baseline sums
   ``(1 - 2w) sum_i w_i h_i`` over every i = 0 .. n-1 with vectorised scipy tails (float64,
   uncertified). Targets: n = 1e7 under 100 ms, n = 1e12 no slower. The last column
   is the certified interval's relative width (the far tail is bucketed within a fixed budget:
   wider there, see dptheory.shuffle.fdp.delta._log_h0).
2. The knots for a plot at n = 1e6 (target under 1 s): ours against the same envelope with
   every line's delta from the O(n) baseline sum.
3. The mpmath path at 50 digits: n = 1e4 (target under 10 s); the baseline (one mpmath tail
   per i over every i, O(n) tails) at n = 1e3 against ours at n = 1e3.

Run: python benchmarks/bench_shuffle_fdp.py   (``--quick`` skips the n = 1e7 baselines)
"""

import math
import statistics
import sys
import time

import mpmath
import numpy as np
from scipy import special, stats

from dptheory.precision import binom_logpmf, mp_binom_pmf, mp_binom_sf
from dptheory.shuffle import fdp
from dptheory.shuffle.fdp import tradeoff as fdp_tradeoff


def timed(fn, repeat=3):
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def baseline_delta(eps0, n, epsilon):
    """(1 - 2w) sum_{i<n} w_i [gamma p_i(k) - (gamma - 1) S_i(k)], k = floor((gamma i - 1)/(gamma+1)) + 1."""
    w, th = fdp.weights(eps0)
    g = 1 + math.expm1(epsilon) / th
    i = np.arange(n, dtype=float)
    wi = np.exp(binom_logpmf(i, n - 1, 2 * w))
    k = np.floor((g * i - 1) / (g + 1)) + 1
    h = g * stats.binom.pmf(k, i, 0.5) - (g - 1) * special.betainc(np.maximum(k, 1e-300), i - k + 1, 0.5)
    h = np.where(k <= 0, 1.0, h)
    return th * math.fsum(wi * h)


def baseline_mp(eps0, n, epsilon, digits=50):
    with mpmath.workdps(digits + 20):
        E = mpmath.exp(eps0)
        w = 1 / (E + 1)
        g = (mpmath.exp(epsilon) - 2 * w) / (1 - 2 * w)
        total = mpmath.mpf(0)
        for i in range(n):
            k = int(mpmath.floor((g * i - 1) / (g + 1))) + 1
            total += mp_binom_pmf(i, n - 1, 2 * w) * (g * mp_binom_pmf(k, i, 0.5) - (g - 1) * mp_binom_sf(k, i, 0.5))
        return (1 - 2 * w) * total


def section_delta(quick):
    eps0 = 1.0
    print("1. delta(eps) of Corollary 4.3, eps0 = 1 (general eps0-LDP randomizer)")
    print(f"{'n':>8s} {'eps':>9s} {'ours ms':>9s} {'baseline ms':>12s} {'ratio':>8s} {'log delta upper':>17s} "
          f"{'baseline log':>14s} {'rel. width':>11s}")
    for n in (10**5, 10**6, 10**7, 10**9, 10**12):
        for label, e in (("5 mu", 5 * fdp.asymptotic_mu(eps0, n)), ("0.03", 0.03), ("0.1", 0.1), ("0.5", 0.5)):
            fdp.shuffle_delta(eps0, n, e)  # warm-up
            t_ours, res = timed(lambda: fdp.shuffle_delta(eps0, n, e))
            width = -math.expm1(res.log_lower - res.log_upper) if res.log_lower > -math.inf else 1.0
            if n <= (10**6 if quick else 10**7):
                t_base, base = timed(lambda: baseline_delta(eps0, n, e), repeat=1)
                shown = f"{math.log(base):14.6g}" if base > 0 else f"{'(underflow)':>14s}"
                print(f"{n:8.0e} {label:>9s} {1e3 * t_ours:9.1f} {1e3 * t_base:12.1f} {t_base / t_ours:8.1f} "
                      f"{res.log_upper:17.10g} {shown} {width:11.2g}")
            else:
                print(f"{n:8.0e} {label:>9s} {1e3 * t_ours:9.1f} {'(O(n): not run)':>12s} {'':>8s} "
                      f"{res.log_upper:17.10g} {'':>14s} {width:11.2g}")


def section_knots():
    eps0, n = 1.0, 10**6
    print("\n2. knots of the certified trade-off curve for a plot, eps0 = 1, n = 1e6")
    t_ours, curve = timed(lambda: fdp.shuffle_tradeoff(eps0, n), repeat=3)

    def baseline():
        mu = fdp.asymptotic_mu(eps0, n)
        eps = np.linspace(0.0, min(10 * mu + mu * mu, 60.0), fdp.GRID_LINES)
        s = -np.exp(eps)
        c = np.array([1 - baseline_delta(eps0, n, e) for e in eps])
        rs, rc = fdp_tradeoff._reflect(s[s < -1], c[s < -1])
        return fdp_tradeoff._envelope(np.concatenate([s, rs]), np.concatenate([c, rc]))

    t_base, _ = timed(baseline, repeat=1)
    print(f"ours {1e3 * t_ours:.0f} ms ({len(curve.p_mass)} segments); baseline {1e3 * t_base:.0f} ms; "
          f"ratio {t_base / t_ours:.1f}")
    t_exact, exact = timed(lambda: fdp.shuffle_tradeoff(eps0, fdp.EXACT_MAX_N), repeat=1)
    print(f"exact C(f_Shuffle) at n = {fdp.EXACT_MAX_N}: {1e3 * t_exact:.0f} ms ({len(exact.p_mass)} segments)")


def section_mp():
    eps0 = 1.0
    print("\n3. mpmath path, 50 digits, eps0 = 1, eps = 0.1")
    t_small, res_small = timed(lambda: fdp.shuffle_delta(eps0, 1000, 0.1, digits=50), repeat=1)
    t_base, base = timed(lambda: baseline_mp(eps0, 1000, 0.1), repeat=1)
    with mpmath.workdps(60):
        agree = abs(mpmath.mpf(res_small.params["value"]) / base - 1)
    print(f"n = 1e3: ours {t_small:.2f} s, baseline (one tail per i) {t_base:.2f} s, ratio {t_base / t_small:.1f}, "
          f"relative difference {mpmath.nstr(agree, 3)}")
    t_big, res_big = timed(lambda: fdp.shuffle_delta(eps0, 10**4, 0.1, digits=50), repeat=1)
    print(f"n = 1e4: ours {t_big:.2f} s, delta = {res_big.params['value']}")


def main():
    quick = "--quick" in sys.argv
    section_delta(quick)
    section_knots()
    section_mp()


if __name__ == "__main__":
    main()
