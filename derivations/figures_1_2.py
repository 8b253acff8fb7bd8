"""Data of Wang et al. (2024), Figures 1-2 (subset selection, optimal local hashing): amplification
ratio eps0/eps per method, n in {1e4, 1e5}, d in {16, 128}. Plots them when matplotlib is present.

Run: python derivations/figures_1_2.py [--plot FILE.png]
"""

import argparse

import numpy as np

from dptheory.shuffle import figures as F


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--plot", help="write a PNG of the eight panels")
    args = parser.parse_args()
    grid = np.round(np.linspace(0.5, 5.0, 10), 2)
    panels = {}
    for name in ("subset", "local-hash"):
        for n in (10**4, 10**5):
            for d in (16, 128):
                rows = F.amplification(name, n, d, grid)
                panels[(name, n, d)] = rows
                print(f"\n{name}, n = {n}, d = {d}, delta = 0.01/n  (amplification ratio eps0/eps)")
                methods = list(dict.fromkeys(r["method"] for r in rows))
                print("eps0  " + "  ".join(f"{m:>24s}" for m in methods))
                for e0 in grid:
                    here = {r["method"]: r for r in rows if r["eps0"] == e0}
                    print(f"{e0:4.2f}  " + "  ".join(f"{here[m]['ratio']:24.3f}" if m in here else " " * 24 for m in methods))
                saved = F.savings(rows)
                print("saving of variation-ratio over the best existing bound:",
                      ", ".join(f"{k:.2f}: {v:.0%}" for k, v in saved.items()))
    if args.plot:
        from dptheory.plots import amplification_panels

        amplification_panels(panels, args.plot)
        print("wrote", args.plot)


if __name__ == "__main__":
    main()
