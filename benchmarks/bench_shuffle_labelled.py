"""Speed of the labelled variation-ratio bound's maximisation over beta' (where it used to stall), as a
ratio against the previous implementation in the same run.

Task: Laplace eps0 = 0.01, n = 1e12, delta at epsilon = eps0 (1 - 1e-10), and Laplace eps0 = 0.1,
n = 1e12, at epsilon = 1.2e-7 (the inverter's first point for delta = 0.5). Baseline: the
previous refinement (linear halving of the interval with the largest bound, up to 2000 points;
``baseline`` below, kept verbatim), against :func:`dptheory.shuffle.variation_ratio.labelled_log_delta`
(geometric splits, and a stop once the grid's share of the width is small against the points'
own float width). Both return certified enclosures; their widths are printed.

Run: python benchmarks/bench_shuffle_labelled.py
"""

import math
import time

from dptheory.results import Enclosure
from dptheory.shuffle import randomizers as R
from dptheory.shuffle import variation_ratio as vr


def baseline(pv, bv, qv, others, e, rtol):
    slack = 2 * vr.input_rtol(pv)
    count = [0]

    def at(b):
        count[0] += 1
        factor, pr = vr.labelled_pair(pv, b, qv, others)
        enc = pr.log_delta(e, rtol=rtol)
        lf = math.log(factor) if factor > 0 else -math.inf
        if 0 < factor < 1:
            enc = Enclosure(enc.log_lower - slack, enc.log_upper + slack)
        return lf, enc

    points = [bv * (k / 8) for k in range(9)]
    values = {b: at(b) for b in points}
    for _ in range(2000):
        lower = max(lf + enc.log_lower for lf, enc in values.values())
        bounds = [(values[points[i + 1]][0] + values[points[i]][1].log_upper, i) for i in range(len(points) - 1)]
        upper, worst = max(bounds)
        if upper == -math.inf or -math.expm1(lower - upper) <= max(rtol, 1e-12) * 2:
            break
        middle = 0.5 * (points[worst] + points[worst + 1])
        if not points[worst] < middle < points[worst + 1]:
            break
        values[middle] = at(middle)
        points.insert(worst + 1, middle)
    return Enclosure(lower, upper), count[0]


def main():
    for eps0, e, rtol in [(0.01, 0.009999999999, 1e-6), (0.1, 1.2215744508566327e-07, 1.7e-4)]:
        rz = R.REGISTRY["laplace"][0](eps0)
        others = 10**12 - 1
        t0 = time.perf_counter()
        old, evaluations = baseline(rz.p, rz.beta, rz.q, others, e, rtol)
        t1 = time.perf_counter()
        new = vr.labelled_log_delta(rz.p, rz.beta, rz.q, others, e, uniform=False, rtol=rtol)
        t2 = time.perf_counter()
        print(f"laplace eps0={eps0} epsilon={e!r}: baseline {t1 - t0:.2f} s ({evaluations} pairs, "
              f"width {old.relative_width():.3g}), new {t2 - t1:.2f} s (width {new.relative_width():.3g}), "
              f"speed ratio {(t1 - t0) / (t2 - t1):.1f}")


if __name__ == "__main__":
    main()
