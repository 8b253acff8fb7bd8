"""The performance table of docs/performance.md: every accounting job of the speed targets, ours
against its peer in one process, as ratios (CPU time, ``time.process_time``, fastest of a few
calls; a ratio below 1 is ours faster).

Peers:

* dp-accounting (a test dependency): the subsampled Gaussian's PLD and RDP, and the composed
  shuffle rounds, where it composes OUR one-round pmf (it has no shuffle construction: its time is
  our round's construction plus its composition and inversion, "the same pmfs");
* the published shuffle algorithms, re-implemented here as published: Wang et al.'s Algorithm 1
  (``bench_shuffle.baseline_algorithm_1``: 20 bisection steps, each summing Theorem 4.8 over all
  n clone counts) and Feldman, McMillan, Talwar's numerical clone analysis (:func:`fmt_published`:
  10 bisection steps, the clone count in blocks of 100 outwards from its mean, each block weighted
  by its binomial mass and bounded by the conditional divergence at its two ends, scipy's
  binomial cdfs; the structure of their published code, written here);
* where no peer code exists, the target of the speed work (a time), or ourselves at another size
  (linearity in the number of orders; the user-by-user 60-digit path, quadratic, timed at n = 200
  and scaled).

Run::

    python benchmarks/report.py [--write] [--items 1,2,3,6]

``--write`` replaces the table between the markers of docs/performance.md. The times are
volatile (a shared machine): the page says when and where they were measured; tests check the
table's shape and that its rows are :data:`CASES`, never the times.
"""

from __future__ import annotations

import argparse
import math
import os
import pathlib
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import timing  # noqa: E402  (benchmarks/timing.py)

DOC = HERE.parent / "docs" / "performance.md"
START, END = "<!-- performance-table:start -->", "<!-- performance-table:end -->"
HEADER = ("item", "job", "ours (s)", "peer", "peer (s)", "ours / peer")


@dataclass(frozen=True)
class Case:
    """One row: ``ours`` and ``peer`` are zero-argument callables (``peer`` None: ``peer_name``
    is a target time in seconds, ``target``)."""
    item: int
    job: str
    ours: Callable
    peer_name: str
    peer: Callable | None = None
    target: float | None = None
    repeats: int = 3
    peer_repeats: int = 3
    #: the clock of ``ours`` (CPU seconds of this process; of the children for a whole command)
    clock: Callable = time.process_time
    #: the peer's time is multiplied by this (a quadratic peer timed at a small size and scaled)
    peer_scale: float = 1.0


# ------------------------------------------------------------------------------- the peers

def fmt_published(n: int, eps0: float, delta: float, iterations: int = 10, step: int = 100) -> float:
    """Feldman, McMillan, Talwar's numerical clone analysis as published (the structure of their
    code, written here): bisection of epsilon over [0, start] (the closed form where it applies,
    else eps0), each delta(epsilon) summing blocks of ``step`` clone counts outwards from the
    mean, each block's binomial mass times the larger conditional divergence at its two ends
    (two scipy binomial cdfs at the likelihood-ratio cutoff), stopping once the mass left cannot
    matter. Not certified; the baseline of the speed comparison only."""
    from scipy import stats

    alpha = math.exp(eps0) / (math.exp(eps0) + 1)
    p = math.exp(-eps0)
    mean = (n - 1) * p

    def conditional(c, eps, forward):
        ratio = ((math.exp(eps) + 1) * alpha - 1) / ((1 + math.exp(eps)) * alpha - math.exp(eps))
        beta = 1 / (ratio + 1) if forward else 1 / (1 / ratio + 1)
        cut = beta * (c + 1)
        lo, hi = stats.binom.cdf(cut, c, 0.5), stats.binom.cdf(cut - 1, c, 0.5)
        pc, qc = alpha * lo + (1 - alpha) * hi, (1 - alpha) * lo + alpha * hi
        return pc - math.exp(eps) * qc if forward else (1 - qc) - math.exp(eps) * (1 - pc)

    def delta_of(eps):
        dp = dq = used = 0.0
        for b in range(1, math.ceil(n / step)):
            for side in (0, 1):
                if side == 0:
                    hi = math.ceil(mean + b * step)
                    lo = hi - step + (0 if b == 1 else 1)
                    if lo > n - 1:
                        continue
                    hi = min(hi, n - 1)
                else:
                    lo = math.ceil(mean - b * step)
                    hi = lo + step - 1
                    if hi < 0:
                        continue
                    lo = max(lo, 0)
                mass = stats.binom.cdf(hi, n - 1, p) - stats.binom.cdf(lo, n - 1, p) + stats.binom.pmf(lo, n - 1, p)
                if max(dp, dq) > delta:
                    return delta
                if 1 - used < dp and 1 - used < dq:
                    return max(dp, dq) + 1 - used
                dp += mass * max(conditional(hi, eps, True), conditional(lo, eps, True))
                dq += mass * max(conditional(hi, eps, False), conditional(lo, eps, False))
                used += mass
        return max(dp, dq)

    if eps0 < math.log(n / (16 * math.log(4 / delta))):
        a = 8 * math.sqrt(math.exp(eps0) * math.log(4 / delta) / n)
        c = 8 * math.exp(eps0) / n
        e = math.log(1 + a + c)
        upper = math.log(1 + (1 - math.exp(-eps0)) / (1 + math.exp(-eps0 - e)) * (a + c))
    else:
        upper = eps0
    lo, hi = 0.0, upper
    for _ in range(iterations):
        mid = 0.5 * (lo + hi)
        if delta_of(mid) < delta:
            hi = mid
        else:
            lo = mid
    return hi


def _dpa_sgm_epsilon(sigma, q, steps, delta):
    from dp_accounting.pld import privacy_loss_distribution as dpa

    pld = dpa.from_gaussian_mechanism(sigma, sampling_prob=q, value_discretization_interval=1e-4)
    return pld.self_compose(steps).get_epsilon_for_delta(delta)


def _rounds_cases():
    def make(n, T=1000):
        def ours():
            from dptheory.shuffle.rounds import rounds_pld
            return rounds_pld(1.0, n, T).epsilon(1e-6)

        def peer():
            from dp_accounting.pld import privacy_loss_distribution as dpa
            from dptheory.shuffle.rounds import round_pld

            one = round_pld(1.0, n)  # our construction: the peer has none
            pmf = {int(one.offset + i): float(m) for i, m in enumerate(np.exp(one.log_mass)) if m > 0}
            pld = dpa.PrivacyLossDistribution.create_from_rounded_probability(pmf, one.inf_mass, one.interval)
            return pld.self_compose(T).get_epsilon_for_delta(1e-6)

        return Case(3, f"composed shuffle rounds, eps0 = 1, T = {T}, n = {n:.0e}, epsilon(1e-6)", ours,
                    "dp-accounting on our pmf", peer, repeats=5, peer_repeats=5)

    return [make(n) for n in (10**3, 10**4, 10**5, 10**8, 10**12)] + [make(10**12, 10**5)]


def children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes."""
    t = os.times()
    return t.children_user + t.children_system


def whole_command(*argv: str) -> Callable:
    """A call running ``dptheory argv`` in a fresh interpreter as an installed copy runs
    (:func:`timing.command_env`)."""
    env = timing.command_env(HERE.parent)

    def call():
        subprocess.run([sys.executable, "-m", "dptheory", *argv], env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)
    return call


def _shuffle_cases():
    def fresh():
        from dptheory.shuffle import pairs
        getattr(pairs, "_BUCKET_CACHES", {}).clear()

    def vr(n):
        def ours():
            from dptheory import shuffle
            from dptheory.shuffle import randomizers as R
            fresh()
            return shuffle.epsilon(R.general_ldp(1.0), n, 1e-8, method="variation-ratio", rtol=1e-3)
        return ours

    def algorithm_1():
        import bench_shuffle
        return bench_shuffle.baseline_algorithm_1(10**6, 1.0, 1e-8)

    out = [Case(1, "variation-ratio, general eps0 = 1, n = 1e6, epsilon(1e-8), rtol 1e-3", vr(10**6),
                "Wang et al. Algorithm 1 as published", algorithm_1, peer_repeats=1)]
    for n in (10**8, 10**12):
        out.append(Case(1, f"variation-ratio, general eps0 = 1, n = {n:.0e}, epsilon(1e-8), rtol 1e-3", vr(n),
                        "target", target=0.010))

    out.append(Case(1, "`dptheory shuffle` with its defaults (every method, n = 1e6), the whole command in a "
                       "fresh interpreter", whole_command("shuffle"), "target", target=0.3, repeats=5,
                    clock=children_cpu))

    def clones(eps0, n):
        def ours():
            from dptheory import shuffle
            from dptheory.shuffle import randomizers as R
            fresh()
            return shuffle.epsilon(R.general_ldp(eps0), n, 1e-8, method="clones", rtol=1e-3)
        return ours

    for eps0, n in ((1.0, 10**3), (8.0, 10**3), (8.0, 10**6), (1.0, 10**6)):
        item = 6 if (n == 10**3 or eps0 == 8.0) else 1
        out.append(Case(item, f"clones, general eps0 = {eps0:g}, n = {n:.0e}, epsilon(1e-8), rtol 1e-3",
                        clones(eps0, n), "Feldman et al.'s numerical analysis as published",
                        lambda eps0=eps0, n=n: fmt_published(n, eps0, 1e-8), peer_repeats=1 if n > 10**4 else 3))
    return out


def _sgm_epsilon(sigma, q, steps, delta):
    from dptheory.subsampled import SubsampledGaussian
    return SubsampledGaussian(sigma, q, steps).epsilon(delta)


def _sgm_cases():
    out = []
    for sigma, q, steps, delta in ((1.0, 0.01, 1000, 1e-5), (0.8, 0.001, 10_000, 1e-5), (2.0, 0.05, 5000, 1e-8)):
        out.append(Case(2, f"DP-SGD PLD, sigma = {sigma:g}, q = {q:g}, T = {steps}, epsilon({delta:g})",
                        lambda a=(sigma, q, steps, delta): _sgm_epsilon(*a),
                        "dp-accounting PLD", lambda a=(sigma, q, steps, delta): _dpa_sgm_epsilon(*a)))
    orders = np.concatenate([[1.5, 2.5, 10.5], np.arange(2, 257)]).astype(float)

    def dpa_rdp():
        from dp_accounting.rdp import rdp_privacy_accountant as dpr
        return dpr._compute_rdp_poisson_subsampled_gaussian(0.01, 1.0, orders)

    def ours_rdp():
        from dptheory import subsampled_rdp
        return subsampled_rdp.sgm_rdp(1.0, 0.01, orders)

    out.append(Case(2, "DP-SGD exact RDP, sigma = 1, q = 0.01, orders 2..256 and 1.5, 2.5, 10.5",
                    ours_rdp, "dp-accounting RDP", dpa_rdp))
    return out


def _orders_cases():
    def curve(count):
        def run():
            from dptheory.shuffle import rdp
            return rdp.rdp_curves(1.0, 10**6, np.linspace(2, 256, count), rtol=1e-3)
        return run

    return [Case(4, "shuffle RDP curve, every method, eps0 = 1, n = 1e6, 1023 orders", curve(1023),
                 "4 x ours at 255 orders (linear)", lambda: [curve(255)() for _ in range(4)], repeats=1,
                 peer_repeats=1)]


#: epsilon of the n = 1e6 row of item 5: about the worst-case epsilon(1e-6) of shuffled binary RR at
#: eps0 = 1 (delta(0.3) at n = 1e6 is far below the float range, where the float search that picks
#: the datasets to evaluate at 60 digits cannot separate them)
DIGITS_EPSILON_1E6 = 0.00285


def _digits_cases():
    def ours(n, epsilon):
        def run():
            from dptheory.shuffle import exact_rr, randomizers as R
            exact_rr._engine.cache_clear()  # the float search's engine is part of the job
            return exact_rr.worst_case_mp(R.binary_rr(1.0), n, epsilon, 60)
        return run

    def peer(epsilon):  # quadratic: timed at n = 200, scaled by (n / 200)^2
        def run():
            import bench_exact_rr
            return bench_exact_rr.user_by_user_mp(200, epsilon)
        return run

    return [Case(5, "shuffled binary RR, eps0 = 1, n = 1e4, worst-case delta(0.3), 60 digits", ours(10**4, 0.3),
                 "user by user in mpmath (n = 200, x 2500)", peer(0.3), repeats=1, peer_repeats=1,
                 peer_scale=(10**4 / 200) ** 2),
            Case(5, f"shuffled binary RR, eps0 = 1, n = 1e6, worst-case delta({DIGITS_EPSILON_1E6:g}), 60 digits",
                 ours(10**6, DIGITS_EPSILON_1E6), "user by user in mpmath (n = 200, x 2.5e7)", peer(DIGITS_EPSILON_1E6),
                 repeats=1, peer_repeats=1, peer_scale=(10**6 / 200) ** 2)]


#: the rows of the table, by item of the speed work (built lazily: imports are timed apart)
CASE_BUILDERS = {1: _shuffle_cases, 2: _sgm_cases, 3: _rounds_cases, 4: _orders_cases, 5: _digits_cases}


def cases(items=None) -> list[Case]:
    out = []
    for builder in CASE_BUILDERS.values():
        out.extend(c for c in builder() if items is None or c.item in items)
    return sorted(out, key=lambda c: c.item)


def case_jobs() -> list[tuple[int, str]]:
    """(item, job) of every row, in the table's order (what the test of the page compares)."""
    return [(c.item, c.job) for c in cases()]


# ------------------------------------------------------------------------------- running

def _fmt(seconds: float) -> str:
    """Three decimals (one from 10 s), six below a millisecond (a check that settles in
    microseconds would show as 0.000)."""
    if seconds < 1e-3:
        return f"{seconds:.6f}"
    return f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}"


def run(case: Case) -> tuple[str, ...]:
    t_ours, _ = timing.best(case.ours, case.repeats, clock=case.clock)
    if case.peer is None:
        t_peer = case.target
    else:
        t_peer, _ = timing.best(case.peer, case.peer_repeats)
        t_peer *= case.peer_scale
    return (str(case.item), case.job, _fmt(t_ours), case.peer_name, _fmt(t_peer), f"{t_ours / t_peer:.2f}")


def markdown(rows) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "|".join("---" for _ in HEADER) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="replace the table of docs/performance.md")
    ap.add_argument("--items", default="1,2,3,4,5,6", help="the items to run (comma-separated)")
    args = ap.parse_args(argv)
    items = {int(x) for x in args.items.split(",")}
    rows = []
    for case in cases(items):
        row = run(case)
        rows.append(row)
        print(" | ".join(row), flush=True)
    table = markdown(rows)
    print()
    print(table)
    if args.write:
        if items != {1, 2, 3, 4, 5, 6}:
            ap.error("--write needs every item (the table is written whole)")
        text = DOC.read_text()
        head, rest = text.split(START, 1)
        _, tail = rest.split(END, 1)
        stamp = (f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `python benchmarks/report.py "
                 f"--write` (CPU seconds, fastest of a few calls, one process; two shared cores).")
        DOC.write_text(f"{head}{START}\n{stamp}\n\n{table}\n{END}{tail}")
        print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
