"""Speed of the exact worst case of shuffled binary randomized response (dptheory/shuffle/exact_rr.py),
as ratios within one run, CPU time.

* float64, certified: one worst-case delta(epsilon) (branch and bound over every dataset) and one
  epsilon(delta) (method "exact"), against one dataset's delta by the straightforward float64 sum
  (scipy's binomial pmf, every count): how many single-dataset sums the certified worst case costs.
* 60 digits: the worst-case delta(epsilon) and epsilon(delta) (exact_rr.worst_case_mp,
  exact_rr.epsilon_mp), against the former path, one dataset convolved user by user in mpmath
  (O(n^2)), timed at n = 200 and scaled by n^2 (it is exactly quadratic).

Run: python benchmarks/bench_exact_rr.py [--quick]   (--quick: n up to 1e5)
"""

import math
import sys
import time

import mpmath
import numpy as np
from scipy.stats import binom

from dptheory.shuffle import exact_rr, methods as M, randomizers as R

EPS0 = 1.0
DELTA = 1e-6


def cpu(fn):
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


def straightforward(n, epsilon):
    q = 1 / (1 + math.exp(EPS0))
    p = 1 - q
    law = binom.pmf(np.arange(n), n - 1, q)
    p0 = np.convolve(law, [p, q])
    p1 = np.convolve(law, [q, p])
    return np.maximum(p0 - math.exp(epsilon) * p1, 0).sum()


def user_by_user_mp(n, epsilon, digits=60):
    with mpmath.workdps(digits + 10):
        q = 1 / (1 + mpmath.exp(EPS0))
        p = 1 - q
        law = [mpmath.mpf(1)]
        for _ in range(n - 1):
            new = [mpmath.mpf(0)] * (len(law) + 1)
            for k, v in enumerate(law):
                new[k] += v * p
                new[k + 1] += v * q
            law = new
        g = mpmath.exp(epsilon)
        p0 = [p * (law[k] if k < len(law) else 0) + q * (law[k - 1] if k else 0) for k in range(n + 1)]
        p1 = [q * (law[k] if k < len(law) else 0) + p * (law[k - 1] if k else 0) for k in range(n + 1)]
        return mpmath.fsum(max(a - g * b, 0) for a, b in zip(p0, p1))


def main(argv):
    quick = "--quick" in argv
    rz = R.binary_rr(EPS0)
    ns = [1000, 10000, 100000] if quick else [1000, 10000, 100000, 1000000]
    print(f"binary randomized response, eps0 = {EPS0}, delta = {DELTA}; CPU seconds")
    print(f"{'n':>8} {'eps(delta)':>10} {'s':>7} {'delta(eps)':>10} {'s':>7} {'one sum s':>9} {'ratio':>7} {'laws':>6}")
    for n in ns:
        exact_rr._engine.cache_clear()
        t_eps, res = cpu(lambda: M.epsilon(rz, n, DELTA, "exact", rtol=1e-6))
        exact_rr._engine.cache_clear()
        t_delta, found = cpu(lambda: exact_rr.engine(rz, n).search(res.upper))
        t_one, _ = cpu(lambda: [straightforward(n, res.upper) for _ in range(5)])
        t_one /= 5
        print(f"{n:>8g} {res.upper:>10.6g} {t_eps:>7.2f} {found[1]:>10.4g} {t_delta:>7.2f} {t_one:>9.4f} "
              f"{t_delta / t_one:>7.0f} {found[4]:>6}", flush=True)
    print()
    t_base, _ = cpu(lambda: user_by_user_mp(200, 0.3))
    print(f"60 digits; the user-by-user path: {t_base:.2f} s at n = 200, so about {t_base * 2500:.0f} s at "
          f"n = 1e4 and {t_base * 2.5e7:.3g} s at n = 1e6 (quadratic)")
    for n in ([1000, 10000] if quick else [1000, 10000, 1000000]):
        e = M.epsilon(rz, n, DELTA, "exact").upper
        t_d, (v, c) = cpu(lambda: exact_rr.worst_case_mp(rz, n, e, 60))
        line = f"  n = {n:g}: worst-case delta({e:.6g}) = {mpmath.nstr(v, 20)} (c = {c}) in {t_d:.2f} s " \
               f"({t_base * (n / 200) ** 2 / t_d:.3g} x faster than user by user)"
        if n <= 10000:
            t_e, (eps, c2) = cpu(lambda: exact_rr.epsilon_mp(rz, n, DELTA, 60))
            line += f"; epsilon({DELTA:g}) = {mpmath.nstr(eps, 20)} in {t_e:.2f} s"
        print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
