"""Speed of the worst case of shuffled generalized randomized response (dptheory/shuffle/exact_grr.py),
as ratios within one run, CPU time.

For each (k, n): one worst-case delta(epsilon) (branch and bound over the datasets) and one
epsilon(delta = 1e-6) inversion, against one dataset's exact delta (its histogram law and one
hockey-stick sum, the straightforward computation the search repeats; for k > 3 also the
augmented experiment of its (c1, c2, M), the search's upper end); where the enumeration of every
dataset (dptheory/shuffle/exact.py) also reaches, against it too. For k > 3 the line gives the
relative width of the delta enclosure (the two ends: the worst concentrated dataset and the
augmented experiment; exact where they meet).

Run: python benchmarks/bench_exact_grr.py [--quick]   (--quick: n up to 100)
"""

import sys

from dptheory.shuffle import exact, exact_grr, randomizers as R
from timing import best

EPS0 = 1.0
DELTA = 1e-6


def cpu(fn):
    """CPU seconds of one call (each call here builds a fresh engine), and its value."""
    return best(fn, 1)


def main(argv):
    quick = "--quick" in argv
    sizes = [(3, 40), (3, 100), (4, 40), (6, 40), (8, 40)] + ([] if quick else [(3, 300), (4, 60), (8, 60)])
    for k, n in sizes:
        rz = R.grr(EPS0, k)
        t_inv, bracket = cpu(lambda: exact_grr.GRR(rz, n).epsilon_bracket(DELTA, rtol=1e-6))
        e = bracket.upper
        t_delta, (lo, hi, counts) = cpu(lambda: exact_grr.GRR(rz, n).search(e))
        eng = exact_grr.GRR(rz, n)
        if k == 3:
            t_one, _ = cpu(lambda: eng.hockey(eng.law(counts), e))
        else:
            t_one, _ = cpu(lambda: (eng.hockey(eng.law(counts), e), eng.hockey(eng.aug_law(counts), e)))
        line = (f"GRR({k}) n={n}: epsilon(1e-6) in [{bracket.lower:.8g}, {bracket.upper:.8g}] {t_inv:.2f} s "
                f"({t_inv / max(t_one, 1e-9):.0f} x one dataset); delta {hi:.4g} (width {(hi - lo) / hi:.1e}) "
                f"{t_delta:.2f} s "
                f"({t_delta / max(t_one, 1e-9):.0f} x one dataset, {t_one * 1e3:.1f} ms); worst: "
                f"{exact_grr.describe(counts, n, k)}")
        if exact.estimate_seconds(rz, n) < 30:
            t_enum, _ = cpu(lambda: exact.Engine(rz, n).evaluate(e))
            line += f"; enumeration of every dataset {t_enum:.2f} s ({t_enum / max(t_delta, 1e-9):.1f} x the search)"
        print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
