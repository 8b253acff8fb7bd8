"""Speed of the shuffle numerics at every scale, this tree against a baseline tree, as ratios.

The cases of issue "faster than every peer" items 1 and 4 and of the scale work: one certified
method's epsilon(delta) (variation-ratio-labelled, clones) at n from 1e6 to 1e12 and delta from
1e-8 to 1e-30; the labelled bound of a non-uniform randomizer (Laplace, n = 1e6: a maximisation
over beta'); an RDP curve of 255 orders. Each call starts
with empty caches (the bucket cache of :mod:`dptheory.shuffle.pairs` is cleared when the tree has
one), so that a repeat measures an inversion, not a cache hit. The machinery (one subprocess per
tree, alternating rounds, fastest call kept) is :mod:`bench_against_baseline`'s.

Run::

    git -C /work/main archive main dptheory | tar -x -C /tmp/baseline
    python benchmarks/bench_scale.py --baseline /tmp/baseline [--rounds 3] [--repeat 3]
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import bench_against_baseline as machinery  # noqa: E402

_SETUP = ("from dptheory import shuffle\nfrom dptheory.shuffle import randomizers as R, pairs\n"
          "G = R.general_ldp(1.0)\n"
          "def fresh():\n    getattr(pairs, '_BUCKET_CACHES', {}).clear()\n")


def _method(name: str, n: str, delta: str) -> tuple[str, str]:
    return _SETUP, f"fresh(); shuffle.epsilon(G, {n}, {delta}, method={name!r})"


CASES = {
    **{f"{m} n={n} delta={d}": _method(m, n, d)
       for m in ("variation-ratio-labelled", "clones")
       for n in ("10**6", "10**8", "10**12")
       for d in ("1e-8", "1e-30")},
    "labelled, laplace n=1e6 (over beta')": (_SETUP + "L = R.laplace(1.0)\n",
                                             "fresh(); shuffle.epsilon(L, 10**6, 1e-8, method='variation-ratio-labelled')"),
    "clone pair RDP, 255 orders n=1e6": ("from dptheory.shuffle.rdp import clone_pair_rdp\nimport numpy as np",
                                         "clone_pair_rdp(1.0, 10**6, np.arange(2, 257, dtype=float), rtol=1e-3)"),
}


def main(argv=None) -> int:
    machinery.CASES = CASES
    return machinery.main(argv)


if __name__ == "__main__":
    sys.exit(main())
