"""Speed of this tree against a baseline tree of the package, in one run, as ratios.

For a change that moves code without meaning to change its cost (a fold of duplicated helpers
into one home, a module split), the baseline is the same calls on the code before the change.
Each tree runs in its own subprocess (``PYTHONPATH`` pointing at it); case by case, the two
alternate ``--rounds`` times, each timing ``--repeat`` calls after one warm-up call, and the
fastest call of each tree is kept (the least disturbed by other load); the ratio is (this
tree's fastest) / (the baseline's fastest). A ratio within about 1 +- 0.1 is noise on a shared
machine.

The cases are the routines touched by the fold of issue "one home for what is doubled": the
certified line envelopes (shuffle f-DP, PLD and DP-GD trade-off functions), the shuffle delta and
its binomial sums, the PLD's log-sum-exp, the RDP conversions and order searches, the count-pair
and Renyi sums, and the bisections of the comparison and mixtures modules.

Run::

    git archive main dptheory | tar -x -C /tmp/baseline      # the code before the change
    python benchmarks/bench_against_baseline.py --baseline /tmp/baseline [--rounds 3] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import time

#: name -> (setup, statement): both trees must have every name used here
CASES = {
    "fdp trade-off n=1000": ("from dptheory.shuffle import fdp", "fdp.shuffle_tradeoff(1.0, 1000)"),
    "fdp trade-off n=1e6 (grid)": ("from dptheory.shuffle import fdp", "fdp.shuffle_tradeoff(1.0, 10**6)"),
    "fdp trade-off n=60, 30 digits": ("from dptheory.shuffle import fdp", "fdp.shuffle_tradeoff(1.0, 60, digits=30)"),
    "fdp delta n=1e7": ("from dptheory.shuffle import fdp", "fdp.shuffle_delta(1.0, 10**7, 0.01)"),
    "fdp report n=300": ("from dptheory.shuffle import fdp", "fdp.fdp_report(1.0, 300, [0.1, 0.5], alphas=[0.2])"),
    "PLD trade-off, 50 rounds": ("from dptheory.pld import PLD\np = PLD.from_pmfs([0.6, 0.3, 0.1], [0.2, 0.3, 0.5])",
                                 "p.self_compose(50).tradeoff()"),
    "PLD epsilon, 50 rounds": ("from dptheory.pld import PLD\np = PLD.from_pmfs([0.6, 0.3, 0.1], [0.2, 0.3, 0.5])",
                               "p.self_compose(50).epsilon(1e-6)"),
    "DP-GD trade-off": ("from dptheory.mixtures import dpgd", "dpgd.dpgd_tradeoff(dpgd.constant(1.0), cells=20000)"),
    "RDP conversion, 120 orders": ("from dptheory import rdp\no = rdp.default_orders()\nv = rdp.gdp_to_rdp(0.5, o)",
                                   "rdp.epsilon_from_rdp(o, v, 1e-6); rdp.delta_from_rdp(o, v, 2.0)"),
    "shuffle RDP route, order search": ("from dptheory.shuffle import rdp",
                                        "rdp.epsilon('girgis-upper-1', 1.0, 10**4, 1e-6)"),
    "shuffle RDP composed (order grid)": ("from dptheory.shuffle.rdp import rdp_route_epsilon",
                                          "rdp_route_epsilon(1.0, 10**4, 100, 1e-6)"),
    "clone pair RDP (pair_renyi)": ("from dptheory.shuffle.rdp import clone_pair_rdp",
                                    "clone_pair_rdp(1.0, 10**5, [2.0, 8.0, 32.0], rtol=1e-4)"),
    "Girgis upper bound 1 (girgis)": ("from dptheory.shuffle.rdp import upper_1",
                                      "upper_1(1.0, 10**6, [2.0, 16.0, 128.0])"),
    "clone bound epsilon (pairs)": ("from dptheory import shuffle\nfrom dptheory.shuffle import randomizers as R",
                                    "shuffle.epsilon(R.general_ldp(1.0), 10**6, 1e-8, method='clones')"),
    "rounds delta (rounds)": ("from dptheory.shuffle import rounds", "rounds.rounds_delta(1.0, 10**4, 10, 0.5)"),
    "Delta by Definition 1 + Levy": ("from dptheory import tradeoff\nfrom dptheory.comparison import "
                                     "delta_divergence_definition, levy_distance\n"
                                     "f = tradeoff.from_pmfs([0.6, 0.3, 0.1], [0.2, 0.3, 0.5])\n"
                                     "g = tradeoff.from_pmfs([0.7, 0.2, 0.1], [0.1, 0.3, 0.6])",
                                     "delta_divergence_definition(f, g); levy_distance(f, g)"),
    "Example F.3 (bisection)": ("import numpy as np\nfrom dptheory.mixtures import advanced",
                                "advanced.example_f3_lemma63(1.0, 0.3, np.linspace(0, 1, 101))"),
}

_WORKER = r"""
import json, sys, time
cases = json.loads(sys.argv[1])
envs = {}
for line in sys.stdin:
    name, repeat = json.loads(line)
    setup, stmt = cases[name]
    code = compile(stmt, name, "exec")
    if name not in envs:
        envs[name] = {}
        exec(setup, envs[name])
        exec(code, envs[name])  # warm-up: imports, caches
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        exec(code, envs[name])
        times.append(time.perf_counter() - start)
    print(json.dumps(times), flush=True)
"""


class _Worker:
    """A subprocess importing one tree, timing cases on request (one JSON line each way)."""

    def __init__(self, tree: pathlib.Path):
        env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}
        self.proc = subprocess.Popen([sys.executable, "-c", _WORKER, json.dumps(CASES)], env=env, cwd="/",
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def times(self, name: str, repeat: int) -> list:
        self.proc.stdin.write(json.dumps([name, repeat]) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, type=pathlib.Path, help="a directory holding the baseline dptheory/")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    here = pathlib.Path(__file__).resolve().parents[1]
    if not (args.baseline / "dptheory").is_dir():
        parser.error(f"baseline = {str(args.baseline)!r} is invalid: it must hold a dptheory/ package")
    workers = {"baseline": _Worker(args.baseline), "this tree": _Worker(here)}
    print(f"{'case':36s} {'baseline':>10s} {'this tree':>10s} {'ratio':>7s}")
    ratios = []
    try:
        for name in CASES:
            best = {label: float("inf") for label in workers}
            for _ in range(args.rounds):  # the two trees alternate, case by case: load drifts less
                for label, worker in workers.items():
                    best[label] = min(best[label], min(worker.times(name, args.repeat)))
            b, t = best["baseline"], best["this tree"]
            ratios.append(t / b)
            print(f"{name:36s} {1e3 * b:8.1f}ms {1e3 * t:8.1f}ms {t / b:7.3f}", flush=True)
    finally:
        for worker in workers.values():
            worker.close()
    print(f"geometric mean of the ratios: {statistics.geometric_mean(ratios):.3f} (fastest of {args.rounds} "
          f"alternating rounds of {args.repeat} calls, {time.strftime('%Y-%m-%d %H:%M')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
