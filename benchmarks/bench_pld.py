"""Privacy loss distributions: our certified PLD against dp_accounting's PLD at the same
discretisation, and T = 1000 composed shuffle rounds at n = 1e6.

    python benchmarks/bench_pld.py

Prints absolute times and ratios measured in the same run (best of ``REPEATS``):
1. 1000 steps of the subsampled Gaussian (sigma = 1, p = 0.01), interval 1e-4, both
   neighbouring directions, building and composing the PLDs; dp_accounting's
   ``from_gaussian_mechanism(...).self_compose(1000)`` (connect-the-dots, pessimistic) is the
   baseline. Target: ours <= 2x theirs.
2. T = 1000 rounds of the shuffled eps0 = 1 protocol at n = 1e6 (the clone pair's PLD, composed),
   and epsilon(1e-6). Target: under 5 s. Baseline in the same run: the straightforward
   computation -- the same one-round PLD composed by T - 1 sequential convolutions instead of
   repeated squaring.
3. One round at n = 1e5: ours (the total count in buckets of relative width 3e-4) against every
   count on its own (the same code, bucket width 1).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dptheory.pld import choose_tilt  # noqa: E402
from dptheory.shuffle.rounds import round_pld, rounds_pld  # noqa: E402
from dptheory.subsampled import SubsampledGaussian  # noqa: E402

import timing  # noqa: E402  (benchmarks/timing.py, beside this script)

REPEATS = 3


def best(fn):
    return timing.best(fn, REPEATS, clock=time.perf_counter)

def ours_sgm():
    mech = SubsampledGaussian(1.0, 0.01, 1000)
    mech.plds()
    return mech


def theirs_sgm():
    from dp_accounting.pld import privacy_loss_distribution as dpa

    return dpa.from_gaussian_mechanism(1.0, sampling_prob=0.01, value_discretization_interval=1e-4).self_compose(1000)


def main() -> None:
    t_ours, mech = best(ours_sgm)
    t_theirs, theirs = best(theirs_sgm)
    print("subsampled Gaussian, sigma = 1, p = 0.01, 1000 steps, interval 1e-4 (both directions)")
    print(f"  ours (certified):        {t_ours:7.3f} s")
    print(f"  dp_accounting:           {t_theirs:7.3f} s")
    print(f"  ratio ours / theirs:     {t_ours / t_theirs:7.2f}   (target <= 2)")
    for eps in (0.5, 1.0, 2.0, 3.0):
        r = mech.delta(eps)
        print(f"  delta({eps}): ours [{r.lower:.6e}, {r.upper:.6e}]  dp_accounting {float(theirs.get_delta_for_epsilon(eps)):.6e}")
    e = mech.epsilon(1e-5)
    print(f"  epsilon(1e-5): ours [{e.lower:.8f}, {e.upper:.8f}]  dp_accounting {theirs.get_epsilon_for_delta(1e-5):.8f}")

    t_rounds, pld = best(lambda: rounds_pld(1.0, 10**6, 1000))
    t = time.perf_counter()
    eps = pld.epsilon(1e-6)
    t_eps = time.perf_counter() - t

    def sequential():
        step = rounds_pld(1.0, 10**6, 1)
        lam = choose_tilt(step, 1000)
        step = step.with_tilt(lam, (-1.0 - 1e-4, 1.0 + 2e-4)) if lam != step.tilt else step
        out = step
        for _ in range(999):
            out = out.compose(step)
        return out

    t0 = time.perf_counter()
    seq = sequential()
    t_seq = time.perf_counter() - t0
    eps_seq = seq.epsilon(1e-6)
    print("shuffle, eps0 = 1, n = 1e6, T = 1000 rounds (clone pair PLD)")
    print(f"  PLD built and composed:  {t_rounds:7.3f} s   (target < 5 s)")
    print(f"  baseline (T - 1 sequential convolutions of the same round): {t_seq:7.3f} s; "
          f"ratio baseline / ours {t_seq / t_rounds:6.1f}")
    print(f"  epsilon(1e-6):           [{eps.lower:.6f}, {eps.upper:.6f}] in {t_eps:.3f} s more "
          f"(baseline [{eps_seq.lower:.6f}, {eps_seq.upper:.6f}])")

    t_b, one = best(lambda: round_pld(1.0, 10**5))
    t0 = time.perf_counter()
    every = round_pld(1.0, 10**5, bucket_rtol=1e-12)
    t_every = time.perf_counter() - t0
    print("one round, eps0 = 1, n = 1e5: count buckets of relative width 3e-4 against every count")
    print(f"  ours {t_b:7.3f} s, every count {t_every:7.3f} s, ratio {t_every / t_b:6.1f}; "
          f"delta(0.05): ours {one.delta(0.05).upper:.8e}, every count {every.delta(0.05).upper:.8e}")


if __name__ == "__main__":
    main()
