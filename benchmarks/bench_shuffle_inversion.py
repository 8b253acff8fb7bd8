"""Speed of one certified shuffle method's epsilon(delta), in process, against a baseline tree of
the package in the same run, as ratios (and the ms figures).

Task (issue: "one method in 10 ms"): general eps0 = 1 randomizer, an epsilon bracket of relative
width 1e-3 at delta = 1e-6, 1e-8 and 1e-30, n from 1e4 to 1e12, by ``variation-ratio-labelled``
and ``clones``. Each tree runs in its own subprocess (``PYTHONPATH`` pointing at it); the import
of the package and one warm-up call (scipy.special is imported on first use) are timed apart.
Every case then starts without the per-pair bucket cache (a fresh (n, eps0), as in a new
command) and is timed as CPU time of the process, the fastest of ``--repeat`` calls. Also
printed: the number of delta evaluations per inversion (``--count``, this tree only).

Run::

    git archive <commit> dptheory | tar -x -C /tmp/baseline      # the code before the change
    python benchmarks/bench_shuffle_inversion.py --baseline /tmp/baseline [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
METHODS = ("variation-ratio-labelled", "clones")
NS = (10**4, 10**6, 10**8, 10**10, 10**12)
DELTAS = (1e-6, 1e-8, 1e-30)

_CHILD = r"""
import json, sys, time
t0 = time.process_time()
from dptheory import shuffle
from dptheory.shuffle import pairs, randomizers as R
t_import = time.process_time() - t0
g = R.general_ldp(1.0)
t0 = time.process_time()
shuffle.epsilon(g, 1000, 1e-6, method="clones", rtol=1e-3)
t_warm = time.process_time() - t0
repeat = int(sys.argv[1])

def fresh():
    for name in ("clear_caches",):
        if hasattr(pairs, name):
            getattr(pairs, name)()
    pairs._BUCKET_CACHES.clear()

out = {"import": t_import, "warm-up": t_warm, "cases": {}}
for method in sys.argv[2].split(","):
    for n in (10**4, 10**6, 10**8, 10**10, 10**12):
        for delta in (1e-6, 1e-8, 1e-30):
            times = []
            for _ in range(repeat):
                fresh()
                t = time.process_time()
                r = shuffle.epsilon(g, n, delta, method=method, rtol=1e-3)
                times.append(time.process_time() - t)
            out["cases"][f"{method} {n:.0e} {delta:.0e}"] = [min(times), r.lower, r.upper]
print(json.dumps(out))
"""


def run(tree: pathlib.Path, repeat: int) -> dict:
    r = subprocess.run([sys.executable, "-W", "ignore", "-c", _CHILD, str(repeat), ",".join(METHODS)], cwd=tree,
                       env={**os.environ, "PYTHONPATH": str(tree)}, capture_output=True, text=True, timeout=1800)
    if r.returncode:
        raise RuntimeError(r.stderr)
    return json.loads(r.stdout.strip().splitlines()[-1])


def count_evaluations() -> None:
    """delta evaluations per inversion in this tree (the inverter's bracket reports them)."""
    from dptheory import inverse
    from dptheory import shuffle
    from dptheory.shuffle import randomizers as R

    seen = []
    original = inverse.epsilon_bracket

    def counting(*args, **kw):
        b = original(*args, **kw)
        seen.append(b.evaluations)
        return b

    from dptheory.shuffle import methods
    methods.epsilon_bracket = counting
    g = R.general_ldp(1.0)
    for method in METHODS:
        row = []
        for n in NS:
            for delta in DELTAS:
                seen.clear()
                shuffle.epsilon(g, n, delta, method=method, rtol=1e-3)
                row.append(seen[-1] if seen else 0)
        print(f"{method}: evaluations per inversion {row} (max {max(row)})")
    methods.epsilon_bracket = original


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", type=pathlib.Path, required=True)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--count", action="store_true")
    args = parser.parse_args()
    new, old = run(ROOT, args.repeat), run(args.baseline, args.repeat)
    print(f"import of dptheory.shuffle: this tree {1e3 * new['import']:.0f} ms, baseline {1e3 * old['import']:.0f} ms; "
          f"first call (scipy.special imported): {1e3 * new['warm-up']:.0f} ms vs {1e3 * old['warm-up']:.0f} ms")
    print(f"{'method':>26s} {'n':>6s} {'delta':>6s} {'ms':>7s} {'base ms':>8s} {'ratio':>6s}  same bracket")
    worst = {}
    for key, (t, lo, hi) in new["cases"].items():
        t0, lo0, hi0 = old["cases"][key]
        method, n, delta = key.split()
        worst[method] = max(worst.get(method, 0.0), t)
        # both brackets are certified: they must overlap
        overlap = max(lo, lo0) <= min(hi, hi0)
        print(f"{method:>26s} {n:>6s} {delta:>6s} {1e3 * t:7.1f} {1e3 * t0:8.1f} {t0 / t:6.1f}  overlap={overlap}")
    for method, t in worst.items():
        print(f"{method}: slowest case {1e3 * t:.1f} ms")
    if args.count:
        count_evaluations()


if __name__ == "__main__":
    main()
