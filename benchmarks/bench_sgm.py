"""DP-SGD accounting (the Poisson-subsampled Gaussian) against dp_accounting, in one run, as ratios.

    python benchmarks/bench_sgm.py

CPU time (``time.process_time``), best of ``REPEATS``, each case from a fresh object (no cache):

1. epsilon(delta) by PLD, both neighbouring directions built, composed and inverted: ours
   (certified, interval 1e-4) against dp_accounting's ``from_gaussian_mechanism(...,
   value_discretization_interval=1e-4).self_compose(T).get_epsilon_for_delta``. Target: ratio <= 1.
2. delta(epsilon) at tiny delta: ours (the per-epsilon tilt) and its two-sided certified interval
   of the true delta, against dp_accounting's value (not certified).
3. The exact RDP curve at the integer orders 2..256 plus 1.5, 2.5, 10.5: ours against
   dp_accounting's ``_compute_rdp_poisson_subsampled_gaussian`` (the same curve).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dptheory import subsampled_rdp  # noqa: E402
from dptheory.subsampled import SubsampledGaussian  # noqa: E402

import timing  # noqa: E402  (benchmarks/timing.py, beside this script)

REPEATS = 3
CASES = [(1.0, 0.01, 1000, 1e-5), (0.8, 0.001, 10_000, 1e-5), (2.0, 0.05, 5000, 1e-8)]


def best(fn):
    return timing.best(fn, REPEATS)

def theirs_pld(sigma, q, steps):
    from dp_accounting.pld import privacy_loss_distribution as dpa

    return dpa.from_gaussian_mechanism(sigma, sampling_prob=q, value_discretization_interval=1e-4).self_compose(steps)


def main() -> None:
    print("1. epsilon(delta) by PLD, both directions, interval 1e-4 (CPU s, best of 3)")
    for sigma, q, steps, delta in CASES:
        t_ours, ours = best(lambda: SubsampledGaussian(sigma, q, steps).epsilon(delta))
        t_theirs, theirs = best(lambda: theirs_pld(sigma, q, steps).get_epsilon_for_delta(delta))
        print(f"  sigma={sigma:g} q={q:g} T={steps} delta={delta:g}: ours {t_ours:6.3f} s "
              f"[{ours.lower:.7f}, {ours.upper:.7f}]  dp_accounting {t_theirs:6.3f} s {theirs:.7f}  "
              f"ratio ours/theirs {t_ours / t_theirs:5.2f} (target <= 1)")

    print("2. delta(epsilon) at tiny delta, sigma = 0.8, q = 0.001, T = 1e4")
    theirs = theirs_pld(0.8, 0.001, 10_000)
    mech = SubsampledGaussian(0.8, 0.001, 10_000)
    for eps in (2.0, 3.0, 4.0):
        t = time.process_time()
        up = mech.delta(eps)
        t_up = time.process_time() - t
        both = mech.delta_interval(eps)
        print(f"  eps={eps:g}: ours {up.upper:.4e} ({t_up:.3f} s); true delta in [{both.lower:.4e}, {both.upper:.4e}] "
              f"(width {both.upper / both.lower - 1:.2%}); dp_accounting {float(theirs.get_delta_for_epsilon(eps)):.4e}")

    print("3. exact RDP curve, integer orders 2..256 and 1.5, 2.5, 10.5")
    orders = np.concatenate([[1.5, 2.5, 10.5], np.arange(2, 257)]).astype(float)
    from dp_accounting.rdp import rdp_privacy_accountant as dpr

    for sigma, q, _, _ in CASES:
        t_ours, (lo, hi) = best(lambda: subsampled_rdp.sgm_rdp(sigma, q, orders))
        t_theirs, ref = best(lambda: dpr._compute_rdp_poisson_subsampled_gaussian(q, sigma, orders))
        ints = orders >= 2
        ints &= orders == np.floor(orders)
        rel = float(np.max(np.abs(0.5 * (lo + hi) - ref)[ints] / ref[ints]))
        print(f"  sigma={sigma:g} q={q:g}: ours {t_ours:6.3f} s, dp_accounting {t_theirs:6.3f} s, "
              f"ratio {t_ours / t_theirs:5.2f}; largest relative difference at the integer orders {rel:.1e}")


if __name__ == "__main__":
    main()
