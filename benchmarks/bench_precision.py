"""Speed of precision.py's routines against the library counterparts they were compared with for
accuracy in tests/test_precision.py, as ratios within one run (median of repeats).

A ratio > 1 means the precision.py routine is slower than the library's. The binomial tails are
hand-written (quadrature of the incomplete beta integral, no scipy import on the command line's
path): the rows against ``betainc`` show what that costs per call, the rows against bdtrc and
scipy.stats.binom the alternatives rejected for accuracy.

Run: python benchmarks/bench_precision.py
"""

import math
import statistics
import time
import warnings

import mpmath
import numpy as np
from scipy import special, stats

from dptheory import precision as pr


def timed(fn, repeat=7):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def row(label, ours, library, note=""):
    t_ours, t_lib = timed(ours), timed(library)
    print(f"{label:44s} {1e6 * t_ours:11.1f} {1e6 * t_lib:11.1f} {t_ours / t_lib:8.2f}  {note}")


def main():
    warnings.simplefilter("ignore")
    rng = np.random.default_rng(1)
    size = 10_000
    n = 1e12
    p = 0.3
    sd = math.sqrt(n * p * (1 - p))
    k = np.ceil(n * p + rng.uniform(-6, 6, size) * sd)
    k_far = np.ceil(n * p + rng.uniform(38, 40, size) * sd)
    x = -rng.exponential(1.0, size)
    vals = rng.normal(size=size)

    print(f"{size} points per call, n = {n:.0e}, p = {p}; microseconds per call (median of 7)")
    print(f"{'routine (ours vs library)':44s} {'ours':>11s} {'library':>11s} {'ratio':>8s}")
    row("logsumexp vs scipy.special.logsumexp", lambda: pr.logsumexp(vals),
        lambda: special.logsumexp(vals), "(the same function)")
    row("log1mexp vs logsumexp(b=[1,-1]) per row", lambda: pr.log1mexp(x),
        lambda: special.logsumexp(np.stack([np.zeros(size), x]), b=np.array([[1.0], [-1.0]]), axis=0),
        "(library cancels near 0)")
    row("binom_logpmf vs scipy.stats.binom.logpmf", lambda: pr.binom_logpmf(k, n, p),
        lambda: stats.binom.logpmf(k, n, p), "(library: gammaln, digits lost)")
    row("binom_logpmf vs log(scipy.stats.binom.pmf)", lambda: pr.binom_logpmf(k, n, p),
        lambda: np.log(stats.binom.pmf(k, n, p)), "(library: 0 below 1e-308)")
    row("binom_sf vs scipy.special.bdtrc", lambda: pr.binom_sf(k, n, p),
        lambda: special.bdtrc(k - 1, n, p), "(bdtrc: NaN at n = 1e12)")
    row("binom_sf vs scipy.stats.binom.sf", lambda: pr.binom_sf(k, n, p),
        lambda: stats.binom.sf(k - 1, n, p), "(Boost ibeta)")
    row("binom_logsf (bulk) vs log(betainc)", lambda: pr.binom_logsf(k, n, p),
        lambda: np.log(special.betainc(k, n - k + 1, p)), "")
    row("binom_logsf (40 sd) vs log(betainc)", lambda: pr.binom_logsf(k_far, n, p),
        lambda: np.log(special.betainc(k_far, n - k_far + 1, p)), "(library: -inf there)")
    row("binom_logcdf (bulk) vs log(betaincc)", lambda: pr.binom_logcdf(k, n, p),
        lambda: np.log(special.betaincc(k + 1, n - k, p)), "")

    print("\nscalar calls (one point), microseconds")
    ks = float(k[0])
    row("binom_logpmf vs scipy.stats.binom.logpmf", lambda: pr.binom_logpmf(ks, n, p),
        lambda: stats.binom.logpmf(ks, n, p))
    row("binom_logsf vs scipy.stats.binom.logsf", lambda: pr.binom_logsf(ks, n, p),
        lambda: stats.binom.logsf(ks - 1, n, p))

    print("\nmpmath at 50 digits, one tail (n = 1e4, 40 sd out), milliseconds")
    with mpmath.workdps(50):
        nn, pp = 10**4, 0.5
        kk = 7000
        t_ours = timed(lambda: pr.mp_binom_sf(kk, nn, pp), repeat=3)
        t_lib = timed(lambda: mpmath.betainc(kk, nn - kk + 1, 0, pp, regularized=True), repeat=3)
        print(f"{'mp_binom_sf vs mpmath.betainc':44s} {1e3 * t_ours:11.2f} {1e3 * t_lib:11.2f} "
              f"{t_ours / t_lib:8.2f}  (betainc: NoConvergence from n = 1e6)")


if __name__ == "__main__":
    main()
