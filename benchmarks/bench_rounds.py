"""T composed rounds of the shuffled eps0-LDP protocol (the clone pair's PLD) against
dp_accounting composing the same one-round pmf, in one run, as ratios.

    python benchmarks/bench_rounds.py [--rounds 1000] [--n 1e3,1e4,1e5,1e6,1e8,1e12]

For each n: ours = ``rounds_pld(1, n, T)`` (the round built, certified, and composed) plus
epsilon(1e-6), and of it the one round's construction alone (``round_pld``); the peer =
dp_accounting's ``PrivacyLossDistribution.create_from_rounded_probability`` on our one-round grid
masses, ``self_compose(T)`` (one FFT power, no certified error) and ``get_epsilon_for_delta(1e-6)``,
timed with our construction of the round added (it has none of its own: "the same pmfs").
CPU seconds, best of ``REPEATS``. Targets: ours <= the peer at every n, <= 1.5 s at every
n <= 1e12.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dptheory.shuffle.rounds import round_pld, rounds_pld  # noqa: E402

import timing  # noqa: E402  (benchmarks/timing.py, beside this script)

REPEATS = 2


def best(fn):
    return timing.best(fn, REPEATS)

def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--n", default="1e3,1e4,1e5,1e6,1e8,1e12")
    args = ap.parse_args()
    from dp_accounting.pld import privacy_loss_distribution as dpa

    T = args.rounds
    print(f"eps0 = 1, T = {T} rounds, epsilon(1e-6); CPU s, best of {REPEATS}")
    for n in (int(float(x)) for x in args.n.split(",")):
        t_ours, eps = best(lambda: rounds_pld(1.0, n, T).epsilon(1e-6))
        one = round_pld(1.0, n)
        pmf = {int(one.offset + i): float(m) for i, m in enumerate(np.exp(one.log_mass)) if m > 0}

        def peer():
            pld = dpa.PrivacyLossDistribution.create_from_rounded_probability(pmf, one.inf_mass, one.interval)
            return pld.self_compose(T).get_epsilon_for_delta(1e-6)

        t_peer, e_peer = best(peer)
        t_round, _ = best(lambda: round_pld(1.0, n))
        print(f"  n = {n:.0e}: ours {t_ours:6.2f} s (round {t_round:5.2f} s) [{eps.lower:.6f}, {eps.upper:.6f}]; "
              f"peer {t_round + t_peer:6.2f} s (composition {t_peer:5.2f} s) {e_peer:.6f}; "
              f"ratio {t_ours / (t_round + t_peer):5.2f}")


if __name__ == "__main__":
    main()
