"""Speed of the exact small-n engine, as ratios against the previous engine in the same run.

Task: one worst-case delta(epsilon) evaluation over every neighbouring dataset, and an
epsilon(delta) inversion (method "exact"), for GRR and binary randomized response at small n.
Baseline: the engine as it was at commit ff5a3bc, reproduced below: a dictionary dynamic
programme over the full histogram for every ordered dataset (no symmetry, no merging of
outputs), in pure Python.

Run: python benchmarks/bench_exact.py [--quick]   (--quick skips the 1-2 minute baseline case)
"""

import itertools
import math
import statistics
import sys
import time
from collections import defaultdict

from dptheory import shuffle
from dptheory.shuffle.subject import Shuffled
from dptheory.shuffle import exact
from dptheory.shuffle import randomizers as R


def timed(fn, repeat=3):
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


# ----------------------------------------------------------------------------- the previous engine


def old_histogram(m, inputs):
    dist = {tuple([0] * m.shape[1]): 1.0}
    table = [[float(v) for v in row] for row in m]
    for x in inputs:
        new = defaultdict(float)
        for hist, prob in dist.items():
            for y, py in enumerate(table[x]):
                if py:
                    h = list(hist)
                    h[y] += 1
                    new[tuple(h)] += prob * py
        dist = dict(new)
    return dist


def old_delta(m, a, b, e):
    p0, p1 = old_histogram(m, a), old_histogram(m, b)
    g = math.exp(e)
    keys = set(p0) | set(p1)
    d01 = math.fsum(max(p0.get(k, 0.0) - g * p1.get(k, 0.0), 0.0) for k in keys)
    d10 = math.fsum(max(p1.get(k, 0.0) - g * p0.get(k, 0.0), 0.0) for k in keys)
    return max(d01, d10)


def old_worst_case(rz, n, e):
    m = rz.pmfs
    rows = m.shape[0]
    best = -1.0
    for x0, x1 in itertools.permutations(range(rows), 2):
        for rest in itertools.combinations_with_replacement(range(rows), n - 1):
            best = max(best, old_delta(m, [x0, *rest], [x1, *rest], e))
    return best


# ----------------------------------------------------------------------------- benchmark


def fresh_engine(rz, n):
    return exact.Engine(rz, n)


def main():
    quick = "--quick" in sys.argv
    cases = [(R.binary_rr(1.0), 10), (R.grr(1.0, 3), 6), (R.grr(1.0, 4), 10), (R.grr(1.0, 8), 5)]
    eps = 0.3
    print("one worst-case delta(0.3) evaluation over every dataset (engine built from scratch)")
    print(f"{'randomizer':>12s} {'n':>3s} {'datasets old/new':>17s} {'old s':>9s} {'new s':>9s} {'ratio':>9s}"
          f" {'old delta':>12s} {'new enclosure':>28s}")
    for rz, n in cases:
        rows = rz.pmfs.shape[0]
        new_t, eng = timed(lambda: fresh_engine(rz, n))
        ev_t, (lo, _, hi, _, _) = timed(lambda: eng.evaluate(eps))
        new_t += ev_t
        if quick and exact.search_size(rows, n) > 5000:
            print(f"{rz.name:>12s} {n:3d} {exact.search_size(rows, n):8d}/{eng.size:<8d} {'skipped':>9s} {new_t:9.4f}"
                  f" {'':>9s} {'':>12s} [{lo:.10g}, {hi:.10g}]")
            continue
        old_t, old = timed(lambda: old_worst_case(rz, n, eps), repeat=1)
        assert lo - 1e-12 <= old <= hi + 1e-12, (rz.name, n, lo, old, hi)
        print(f"{rz.name:>12s} {n:3d} {exact.search_size(rows, n):8d}/{eng.size:<8d} {old_t:9.3f} {new_t:9.4f}"
              f" {old_t / new_t:9.0f} {old:12.6g} [{lo:.10g}, {hi:.10g}]")

    print("\nexact epsilon(delta = 1e-3) by shuffle.epsilon(method='exact'), relative width 1e-3"
          " (old: ~10 evaluations of the baseline)")
    for rz, n in cases + [(R.grr(1.0, 8), 10), (R.binary_rr(1.0), 200)]:
        exact._engine_cached.cache_clear()
        t, res = timed(lambda: shuffle.epsilon(rz, n, 1e-3, method="exact"), repeat=1)
        est = shuffle.METHODS["exact"].cost(Shuffled(rz, n), "epsilon")
        print(f"{rz.name:>12s} {n:4d} {t:8.3f} s  (estimated {est:8.3f} s)  [{res.lower:.8g}, {res.upper:.8g}]")


if __name__ == "__main__":
    main()
