"""Start-up time of the command, as ratios against the imports it cannot avoid, in the same run.

Each command is a fresh interpreter (``python -m dptheory ...``), timed by wall clock (median
of several runs). The floors are measured in the same run: a bare interpreter, and the
libraries the float path of ``dptheory gdp`` needs (numpy and mpmath; since 2026-11-23 not
scipy.special, shown for scale with sympy: no float command should pay for either).

The baseline is the code before the speed branch (commit BASELINE, main when it started),
extracted under /tmp by ``git archive`` unless ``--baseline DIR`` names another checkout; every
command is timed there too in the same run and the ratio printed, as wall clock and as CPU time
of the child (user + system: less sensitive to other work on a shared machine).

The targets: a command that computes a number from a closed form answers in under 0.3 s;
the whole RDP curve (63 orders, every method) at n = 1e8 in under 1 s, and at n = 1e12 no slower.

Run: python benchmarks/bench_cli.py [--baseline DIR] [--repeat 7]
"""

from __future__ import annotations

import argparse
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import time

import baseline
import timing

ROOT = pathlib.Path(__file__).resolve().parents[1]

COMMANDS = {
    "dptheory --help": ["-m", "dptheory", "--help"],
    "dptheory gdp --mu 1 --delta 1e-6": ["-m", "dptheory", "gdp", "--mu", "1", "--delta", "1e-6"],
    "dptheory gdp --mu 1 --epsilon 40": ["-m", "dptheory", "gdp", "--mu", "1", "--epsilon", "40"],
    "dptheory mechanism gaussian --sigma 2": ["-m", "dptheory", "mechanism", "gaussian", "--sigma", "2"],
    "dptheory mechanism laplace --scale 2": ["-m", "dptheory", "mechanism", "laplace", "--scale", "2"],
    "dptheory mechanism rr --eps0 1 --k 4": ["-m", "dptheory", "mechanism", "rr", "--eps0", "1", "--k", "4"],
    "dptheory formula": ["-m", "dptheory", "formula"],
    "dptheory shuffle --methods clones-closed-form": ["-m", "dptheory", "shuffle", "--methods", "clones-closed-form"],
    "dptheory shuffle (every method)": ["-m", "dptheory", "shuffle"],
    "dptheory rdp --methods girgis-upper-1": ["-m", "dptheory", "rdp", "--methods", "girgis-upper-1"],
    "dptheory rdp --eps0 1 --n 1e8 --orders 2..64": ["-m", "dptheory", "rdp", "--eps0", "1", "--n", "1e8",
                                                     "--orders", "2..64"],
    "dptheory rdp --eps0 1 --n 1e12 --orders 2..64": ["-m", "dptheory", "rdp", "--eps0", "1", "--n", "1e12",
                                                      "--orders", "2..64"],
    "python -c 'import dptheory'": ["-c", "import dptheory"],
}
#: main before the speed branch
BASELINE = "61d756a"
FLOORS = {
    "python (bare interpreter)": ["-c", "pass"],
    "import numpy": ["-c", "import numpy"],
    "import numpy, mpmath": ["-c", "import numpy, mpmath"],
    "import scipy.special": ["-c", "import scipy.special"],
    "import sympy": ["-c", "import sympy"],
}


def timed(args: list[str], cwd: pathlib.Path, repeat: int) -> tuple[float, float]:
    """Median wall-clock and median CPU (user + system) seconds of ``python args`` run in ``cwd``
    (output discarded)."""
    env = timing.command_env(cwd)
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, *args], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def baseline_tree() -> pathlib.Path | None:
    """The code of BASELINE under /tmp (git archive), or None outside a git checkout."""
    return baseline.tree(BASELINE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=pathlib.Path, help=f"checkout to compare against (default: {BASELINE})")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    base = args.baseline or baseline_tree()

    floors = {name: timed(a, ROOT, args.repeat) for name, a in FLOORS.items()}
    floor = floors["import numpy, mpmath"][0]
    print(f"floors (median of {args.repeat} fresh interpreters; wall s, cpu s):")
    for name, (w, c) in floors.items():
        print(f"  {name:45s} {w:6.3f} {c:6.3f}")
    print()
    header = f"{'command':48s} {'wall s':>6s} {'cpu s':>6s} {'/floor':>6s}"
    if base:
        header += f" {'before wall':>11s} {'before cpu':>10s} {'ratio wall':>10s} {'ratio cpu':>9s}"
    print(header)
    for name, a in COMMANDS.items():
        w, c = timed(a, ROOT, args.repeat)
        line = f"{name:48s} {w:6.3f} {c:6.3f} {w / floor:6.2f}"
        if base:
            bw, bc = timed(a, base, args.repeat)
            line += f" {bw:11.3f} {bc:10.3f} {bw / w:10.2f} {bc / c:9.2f}"
        print(line)
    print("\nfloor = the imports of the float path (numpy, mpmath); ratio = before / now (> 1: faster now)")


if __name__ == "__main__":
    main()
