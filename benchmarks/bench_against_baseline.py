"""Speed of this tree against a baseline tree of the package, in one run, as ratios.

For a change that moves code without meaning to change its cost (a fold of duplicated helpers
into one home, a module split), the baseline is the same calls on the code before the change.
Each tree runs in its own subprocess (``PYTHONPATH`` pointing at it), the two alternating
``--rounds`` times; every case is warmed up once, then timed ``--repeat`` times, and the
median of each round is kept; the ratio is (this tree's best round) / (the baseline's best
round). A ratio within about 1 +- 0.1 is noise on a shared machine.

The cases are the routines touched by the fold of issue "one home for what is doubled": the
certified line envelopes (shuffle f-DP, PLD and DP-GD trade-off functions), the shuffle delta and
its binomial sums, the PLD's log-sum-exp, the RDP conversions and order searches, the count-pair
and Renyi sums, and the bisections of the comparison and mixtures modules.

Run::

    git archive main dptheory | tar -x -C /tmp/baseline      # the code before the change
    python benchmarks/bench_against_baseline.py --baseline /tmp/baseline [--rounds 2] [--repeat 3]
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

_RUNNER = r"""
import json, statistics, sys, time
cases, repeat = json.loads(sys.argv[1]), int(sys.argv[2])
out = {}
for name, (setup, stmt) in cases.items():
    env = {}
    exec(setup, env)
    code = compile(stmt, name, "exec")
    exec(code, env)  # warm-up: imports, caches
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        exec(code, env)
        times.append(time.perf_counter() - start)
    out[name] = statistics.median(times)
print(json.dumps(out))
"""


def run_tree(tree: pathlib.Path, repeat: int) -> dict:
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-c", _RUNNER, json.dumps(CASES), str(repeat)], env=env,
                          capture_output=True, text=True, check=True, cwd="/")
    return json.loads(proc.stdout)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, type=pathlib.Path, help="a directory holding the baseline dptheory/")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    here = pathlib.Path(__file__).resolve().parents[1]
    if not (args.baseline / "dptheory").is_dir():
        parser.error(f"baseline = {str(args.baseline)!r} is invalid: it must hold a dptheory/ package")
    best: dict = {"baseline": {}, "this tree": {}}
    for _ in range(args.rounds):
        for label, tree in (("baseline", args.baseline), ("this tree", here)):
            for name, seconds in run_tree(tree, args.repeat).items():
                best[label][name] = min(seconds, best[label].get(name, float("inf")))
    print(f"{'case':36s} {'baseline':>10s} {'this tree':>10s} {'ratio':>7s}")
    for name in CASES:
        b, t = best["baseline"][name], best["this tree"][name]
        print(f"{name:36s} {1e3 * b:8.1f}ms {1e3 * t:8.1f}ms {t / b:7.3f}")
    ratios = [best["this tree"][n] / best["baseline"][n] for n in CASES]
    print(f"geometric mean of the ratios: {statistics.geometric_mean(ratios):.3f} "
          f"({args.rounds} alternating rounds, median of {args.repeat} each, {time.strftime('%Y-%m-%d %H:%M')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
