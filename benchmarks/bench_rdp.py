"""Speed of the shuffle RDP routines, as ratios within one run.

1. Girgis et al.'s mixture variant (Theorems 3.6-3.7 summed over the clone count): the certified
   bucket sum against the straightforward sum over every count within 800 nats of the mode.
2. Converting the exact clone-pair RDP to (epsilon, delta): the order search against a dense
   grid of 96 orders up to 1e4 (dptheory.rdp.default_orders).
3. The exact clone-pair divergence at high orders (where a single shuffle's conversion has its
   optimum): refinement stopped on the width of the divergence (what CountPair.renyi does) against
   stopping on the width of the excess sum P^lam Q^(1-lam) - 1, both at rtol 1e-3.

Run: python benchmarks/bench_rdp.py
"""

import math
import time

import numpy as np

from dptheory import rdp as rdp_module
from dptheory.precision import binom_logpmf, logsumexp
from dptheory.shuffle import clones, rdp
from dptheory.shuffle.pairs import excess_to_renyi
from dptheory.shuffle.rdp import _log_b37_excess


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def mixture_full_sum(e0, n, order):
    """Every clone count within 800 nats of the mode, one B_3.7 evaluation each."""
    q = math.exp(-e0)
    m = np.arange(n, dtype=float)
    lw = binom_logpmf(m, n - 1, q)
    keep = lw > lw.max() - 800
    cap = math.log(math.expm1(e0 * order)) if e0 * order < 700 else e0 * order
    total = float(logsumexp(lw[keep] + np.minimum(_log_b37_excess(e0, m[keep] + 1, order), cap)))
    return math.log1p(math.exp(total)) / (order - 1)


def main():
    print("1. mixture variant, eps0 = 1: bucketed vs full sum")
    for n in (10**4, 10**6):
        for order in (8, 64, 512):
            t_b, v_b = timed(lambda: rdp.upper_1_mixture(1.0, n, [order])[0])
            t_f, v_f = timed(lambda: mixture_full_sum(1.0, n, order))
            print(f"   n = {n:>8d}, order {order:>4d}: bucketed {t_b * 1e3:8.1f} ms, full {t_f * 1e3:8.1f} ms,"
                  f" ratio {t_f / t_b:6.1f}x; values {v_b:.6g} >= {v_f:.6g}: {v_b >= v_f * (1 - 1e-12)}")

    print("2. exact clone pair RDP -> (epsilon, delta = 1e-8), T = 1000, eps0 = 1")
    for n in (10**4, 10**6):
        def curve(o, n=n):
            return o, 1000 * rdp.clone_pair_rdp(1.0, n, o, rtol=1e-3)[1]
        calls = []
        counted = lambda o: (calls.append(len(o)), curve(o))[1]
        t_s, (e_s, o_s) = timed(lambda: rdp_module.to_dp_search(counted, 1e-8))
        dense = rdp_module.default_orders()
        t_d, (e_d, o_d) = timed(lambda: rdp_module.to_dp_with_order(*curve(dense), 1e-8))
        print(f"   n = {n:>8d}: search {t_s:6.2f} s ({sum(calls)} orders) eps {e_s:.6g} at {o_s:.1f};"
              f" dense grid {t_d:6.2f} s ({dense.size} orders) eps {e_d:.6g} at {o_d:.0f}; ratio {t_d / t_s:5.1f}x")

    print("3. clone pair D_lam at rtol 1e-3, eps0 = 1: stop on the divergence vs on the excess")
    for n in (10**6, 10**7):
        for order in (64.0, 3000.0, 6000.0):
            pair = clones.clone_pair(1.0, n)
            t_d, (lo, hi) = timed(lambda: pair.renyi(order, rtol=1e-3))
            t_e, enc = timed(lambda: pair.renyi_log_excess(order, rtol=1e-3))
            hi_e = excess_to_renyi(enc.log_upper, order)
            print(f"   n = {n:>8d}, order {order:>6.0f}: divergence rule {t_d * 1e3:7.1f} ms (width {(hi - lo) / hi:.1e}),"
                  f" excess rule {t_e * 1e3:7.1f} ms, ratio {t_e / t_d:5.1f}x; upper {hi:.6g} vs {hi_e:.6g}")


if __name__ == "__main__":
    main()
