"""Start-up time of the command, as ratios against the imports it cannot avoid, in the same run.

Each command is a fresh interpreter (``python -m dptheory ...``), timed by wall clock (median
of several runs). The floors are measured in the same run: a bare interpreter, and the
libraries the float path of ``dptheory gdp`` needs (numpy and mpmath; since 2026-11-23 not
scipy.special, shown for scale with sympy: no float command should pay for either).

With ``--baseline DIR`` (a checkout of the code before the change, e.g. ``git worktree add
/tmp/base ff5a3bc``) the same commands are timed there too and the ratio is printed.

Issue 9's target: a command that computes a number from a closed form answers in under 0.3 s.

Run: python benchmarks/bench_cli.py [--baseline DIR] [--repeat 7]
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]

COMMANDS = {
    "dptheory --help": ["-m", "dptheory", "--help"],
    "dptheory gdp --mu 1 --delta 1e-6": ["-m", "dptheory", "gdp", "--mu", "1", "--delta", "1e-6"],
    "dptheory gdp --mu 1 --epsilon 40": ["-m", "dptheory", "gdp", "--mu", "1", "--epsilon", "40"],
    "dptheory formula": ["-m", "dptheory", "formula"],
    "dptheory shuffle --methods clones-closed-form": ["-m", "dptheory", "shuffle", "--methods", "clones-closed-form"],
    "dptheory rdp --eps0 1 --n 1e8 (every method)": ["-m", "dptheory", "rdp", "--eps0", "1", "--n", "1e8"],
    "dptheory rdp --eps0 1 --n 1e12 (every method)": ["-m", "dptheory", "rdp", "--eps0", "1", "--n", "1e12"],
    "python -c 'import dptheory'": ["-c", "import dptheory"],
}
FLOORS = {
    "python (bare interpreter)": ["-c", "pass"],
    "import numpy, mpmath": ["-c", "import numpy, mpmath"],
    "import scipy.special": ["-c", "import scipy.special"],
    "import sympy": ["-c", "import sympy"],
}


def wall(args: list[str], cwd: pathlib.Path, repeat: int) -> float:
    """Median wall-clock seconds of ``python args`` run in ``cwd`` (output discarded)."""
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, *args], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=pathlib.Path, help="checkout of the code to compare against")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    floors = {name: wall(a, ROOT, args.repeat) for name, a in FLOORS.items()}
    floor = floors["import numpy, mpmath"]
    print(f"floors (median of {args.repeat} fresh interpreters):")
    for name, t in floors.items():
        print(f"  {name:45s} {t:6.3f} s")
    print()
    header = f"{'command':48s} {'s':>6s} {'/ floor':>8s}"
    if args.baseline:
        header += f" {'before s':>9s} {'before/now':>10s}"
    print(header)
    for name, a in COMMANDS.items():
        t = wall(a, ROOT, args.repeat)
        line = f"{name:48s} {t:6.3f} {t / floor:8.2f}"
        if args.baseline:
            before = wall(a, args.baseline, args.repeat)
            line += f" {before:9.3f} {before / t:10.2f}"
        print(line)
    print("\nfloor = the imports of the float path (numpy, mpmath); a ratio near 1 means "
          "the command pays only for those")


if __name__ == "__main__":
    main()
