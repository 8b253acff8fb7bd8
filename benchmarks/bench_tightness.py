"""The table of docs/tightness.md: every proven upper bound's epsilon(delta = 1e-6) over the exact
value of shuffled binary randomized response (n from 1e2 to 1e6, eps0 from 0.5 to 8) and of
generalized randomized response at the sizes the enumeration reaches; with the time of the exact
value against the time of the variation-ratio bound in the same run (a ratio).

Run: python benchmarks/bench_tightness.py [--write] [--quick] [--grr]
  --write  replace the table in docs/tightness.md (between its markers)
  --quick  n up to 1e4 only
  --grr    the table of generalized randomized response at the search's sizes only (its own
           markers in docs/tightness.md)
"""

import pathlib
import sys
import time

from dptheory.shuffle import methods as M, tightness as T

DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "tightness.md"
START, END = "<!-- tightness-table:start -->", "<!-- tightness-table:end -->"
GRR_START, GRR_END = "<!-- tightness-grr-table:start -->", "<!-- tightness-grr-table:end -->"
#: the proven upper bounds shown (in this order)
METHODS = ["variation-ratio", "variation-ratio-labelled", "stronger-clones", "clones", "blanket-bennett",
           "blanket-hoeffding", "clones-closed-form"]
DELTA = 1e-6


def grid(quick: bool):
    ns = [100, 1000, 10000] if quick else [100, 1000, 10000, 100000, 1000000]
    for eps0 in (0.5, 1.0, 2.0, 4.0, 8.0):
        for n in ns:
            yield "binary-rr", eps0, n
    for name, n in (("grr(3)", 20), ("grr(3)", 40), ("grr(4)", 20), ("grr(8)", 10)):
        for eps0 in (1.0, 4.0):
            yield name, eps0, n


def grr_grid():
    for name, n in (("grr(3)", 100), ("grr(3)", 300), ("grr(4)", 40), ("grr(6)", 40), ("grr(8)", 40)):
        for eps0 in (1.0, 2.0):
            yield name, eps0, n


def main(argv):
    quick = "--quick" in argv
    only_grr = "--grr" in argv
    start_mark, end_mark = (GRR_START, GRR_END) if only_grr else (START, END)
    rows, timing = [], []
    for name, eps0, n in (grr_grid() if only_grr else grid(quick)):
        start = time.process_time()
        r = T.row(name, eps0, n, DELTA, methods=METHODS)
        total = time.process_time() - start
        rows.append(r)
        t_exact = r.exact.params.get("seconds", float("nan"))
        start = time.process_time()
        # the baseline: the tightest cheap upper bound (variation-ratio is refuted for GRR)
        baseline = "stronger-clones" if name.startswith("grr") else "variation-ratio"
        M.epsilon(T.randomizer(name, eps0), n, DELTA, baseline, rtol=1e-4)
        t_vr = time.process_time() - start
        timing.append((name, eps0, n, t_exact, t_vr))
        print(f"{name} eps0={eps0:g} n={n:g}: exact [{r.exact.lower:.6g}, {r.exact.upper:.6g}] "
              f"({t_exact:.2f} s, {t_exact / max(t_vr, 1e-9):.1f} x {baseline}); row {total:.1f} s; "
              f"{r.attained_by}", flush=True)
    table = T.markdown(rows, METHODS)
    print()
    print(table)
    if "--write" in argv:
        text = DOC.read_text()
        head, rest = text.split(start_mark, 1)
        _, tail = rest.split(end_mark, 1)
        DOC.write_text(f"{head}{start_mark}\n{table}\n{end_mark}{tail}")
        print(f"wrote {DOC}")


if __name__ == "__main__":
    main(sys.argv[1:])
