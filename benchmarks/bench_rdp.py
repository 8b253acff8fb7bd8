"""Speed of the shuffle RDP routines, as ratios within one run.

0. The whole curve table and ``dptheory rdp --orders 2..64`` against main before the speed
   branch (61d756a), as CPU-time ratios.
1. The RDP curve of the shuffle model at 63 orders (2..64), every method, at n = 1e6, 1e8, 1e9
   and 1e12, against the code of commit ff5a3bc (run from a git worktree of that commit, created
   under /tmp if missing, in a subprocess of this run); the old code is timed on the two exact
   pairs (chen-exact, stronger-clones) where it took ~10 s at n = 1e8, and on
   ``dptheory rdp --eps0 0.1 --n 1e9 --orders 2..64`` with a limit of 120 s.
2. Girgis et al.'s mixture variant: the certified bucket sum against the sum over every count.
3. The clone-pair divergence at high orders: refinement stopped on the width of the divergence
   (what pair_renyi.renyi does) against stopping on the width of the excess sum.
4. Curves of many orders (255, 511, 1023 orders from 2) at n = 1e6, eps0 = 1, chen-exact and
   stronger-clones: this tree (anchors enclosed by convexity, window tables shared across orders)
   against main before it (MANY_BASELINE), CPU seconds (best of 2), each in a subprocess of this run.
5. Girgis et al.'s mixture variant at 255, 1023 and 8191 orders (2 ..), n = 1e6, eps0 = 1: this
   tree (Theorem 3.7's sum over i on a window around its largest term) against the sum over every
   i (MIXTURE_BASELINE), CPU seconds per order and the largest change of a value.

Run: python benchmarks/bench_rdp.py [section number ...]
"""

import math
import os
import subprocess
import sys
import time

import numpy as np

import baseline

from dptheory.precision import binom_logpmf, logsumexp
from dptheory.shuffle import clones, pair_renyi
from dptheory.shuffle import rdp
from dptheory.shuffle.rdp.girgis import _log_b37_excess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OLD = "/tmp/dptheory-ff5a3bc"
ORDERS = np.arange(2, 65, dtype=float)

_OLD_CURVE = """
import sys, time, numpy as np
from dptheory.shuffle import rdp
stronger = sys.argv[3] == "1"
t = time.perf_counter()
lo, hi = rdp.clone_pair_rdp(float(sys.argv[1]), int(float(sys.argv[2])), np.arange(2, 65, dtype=float),
                            stronger=stronger, rtol=1e-3)
print(time.perf_counter() - t, hi[0], hi[-1])
"""


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def old_worktree() -> str | None:
    if not os.path.isdir(OLD):
        r = subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", OLD, "ff5a3bc"], capture_output=True)
        if r.returncode:
            return None
    return OLD


def old_curve(e0, n, stronger, timeout=300):
    try:
        r = subprocess.run([sys.executable, "-c", _OLD_CURVE, str(e0), str(n), "1" if stronger else "0"], cwd=OLD,
                           capture_output=True, text=True, timeout=timeout)
        seconds, first, last = r.stdout.split()
        return float(seconds), float(first), float(last)
    except subprocess.TimeoutExpired:
        return None


def mixture_full_sum(e0, n, order):
    """Every clone count within 800 nats of the mode, one B_3.7 evaluation each."""
    q = math.exp(-e0)
    m = np.arange(n, dtype=float)
    lw = binom_logpmf(m, n - 1, q)
    keep = lw > lw.max() - 800
    cap = math.log(math.expm1(e0 * order)) if e0 * order < 700 else e0 * order
    total = float(logsumexp(lw[keep] + np.minimum(_log_b37_excess(e0, m[keep] + 1, order), cap)))
    return math.log1p(math.exp(total)) / (order - 1)


def section_curves():
    print("1. RDP curve, orders 2..64, rtol 1e-3: every method (seconds); the exact pairs against ff5a3bc")
    have_old = old_worktree() is not None
    for e0 in (1.0, 0.1):
        for n in (10**6, 10**8, 10**9, 10**12):
            times = {}
            for slug in rdp.RDP_METHODS:
                times[slug], _ = timed(lambda: rdp.rdp_curve(slug, e0, n, ORDERS, rtol=1e-3))
            print(f"   eps0 = {e0}, n = {n:.0e}: total {sum(times.values()):6.2f} s; "
                  + ", ".join(f"{k} {v:.2f}" for k, v in times.items()))
            if have_old and n <= 10**8:
                for stronger, slug in ((False, "chen-exact"), (True, "stronger-clones")):
                    old = old_curve(e0, n, stronger)
                    new = rdp.clone_pair_rdp(e0, n, ORDERS, stronger=stronger, rtol=1e-3)
                    if old is None:
                        print(f"      {slug}: old > 300 s, new {times[slug]:.2f} s")
                        continue
                    t_old, first, last = old
                    print(f"      {slug}: old {t_old:6.2f} s, new {times[slug]:5.2f} s, ratio {t_old / times[slug]:5.1f}x;"
                          f" upper at 2: old {first:.6g} new {new.upper[0]:.6g}, at 64: old {last:.6g} new {new.upper[-1]:.6g}")
    if have_old:
        cmd = [sys.executable, "-m", "dptheory", "rdp", "--eps0", "0.1", "--n", "1e9", "--orders", "2..64"]
        t_new, _ = timed(lambda: subprocess.run(cmd, cwd=ROOT, capture_output=True, timeout=600))
        try:
            t_old, _ = timed(lambda: subprocess.run(cmd, cwd=OLD, capture_output=True, timeout=120))
            old_text = f"{t_old:.1f} s, ratio {t_old / t_new:.1f}x"
        except subprocess.TimeoutExpired:
            old_text = "> 120 s (stopped)"
        print(f"   dptheory rdp --eps0 0.1 --n 1e9 --orders 2..64: new {t_new:.1f} s, old {old_text}")


def section_mixture():
    print("2. mixture variant, eps0 = 1: bucketed vs full sum")
    for n in (10**4, 10**6):
        for order in (8, 64, 512):
            t_b, v_b = timed(lambda: rdp.upper_1_mixture(1.0, n, [order])[0])
            t_f, v_f = timed(lambda: mixture_full_sum(1.0, n, order))
            print(f"   n = {n:>8d}, order {order:>4d}: bucketed {t_b * 1e3:8.1f} ms, full {t_f * 1e3:8.1f} ms,"
                  f" ratio {t_f / t_b:6.1f}x; values {v_b:.6g} >= {v_f:.6g}: {v_b >= v_f * (1 - 1e-12)}")


def section_high_orders():
    print("3. clone pair D_lam at rtol 1e-3, eps0 = 1: stop on the divergence vs on the excess")
    for n in (10**6, 10**7):
        for order in (64.0, 3000.0, 6000.0):
            pair = clones.clone_pair(1.0, n)
            t_d, (lo, hi) = timed(lambda: pair_renyi.renyi(pair, order, rtol=1e-3))
            t_e, enc = timed(lambda: pair_renyi.renyi_log_excess(pair, order, rtol=1e-3))
            hi_e = pair_renyi.excess_to_renyi(enc.log_upper, order)
            print(f"   n = {n:>8d}, order {order:>6.0f}: divergence rule {t_d * 1e3:7.1f} ms (width {(hi - lo) / hi:.1e}),"
                  f" excess rule {t_e * 1e3:7.1f} ms, ratio {t_e / t_d:5.1f}x; upper {hi:.6g} vs {hi_e:.6g}")


_TABLE = """
import sys, time, numpy as np
from dptheory.shuffle import rdp
rdp.rdp_curves(1.0, 10**4, [2.0])  # imports and lazily built formulas, outside the timing
rdp.rdp_curve("girgis-corollary-3.2", 1.0, 10**8, [2.0, 16.0, 17.0])  # its edge check, outside too
t = time.process_time()
rdp.rdp_curves(float(sys.argv[1]), int(float(sys.argv[2])), np.arange(2, 65, dtype=float), rtol=1e-3)
print(time.process_time() - t)
"""
#: main before the speed branch (the commit the speed targets were measured against)
BASELINE = "61d756a"


def section_table():
    """The whole curve table of ``dptheory rdp --orders 2..64`` (every method), this tree against
    BASELINE (git archive under /tmp, each in a fresh subprocess of this run), in CPU seconds
    (median of 3: less sensitive than wall clock to other work on a shared machine); then the
    command itself, start-up included."""
    print(f"0. whole RDP curve table, 63 orders, every method (CPU s, median of 3): this tree vs {BASELINE}")
    base = str(baseline.tree(BASELINE))

    def run(cwd, e0, n):
        times = []
        for _ in range(3):
            r = subprocess.run([sys.executable, "-W", "ignore", "-c", _TABLE, str(e0), str(n)], cwd=cwd,
                               env={**os.environ, "PYTHONPATH": cwd}, capture_output=True, text=True, timeout=600)
            times.append(float(r.stdout.split()[-1]) if r.returncode == 0 else float("nan"))
        return float(np.median(times))

    def command(cwd, n):
        import resource

        times = []
        for _ in range(3):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([sys.executable, "-m", "dptheory", "rdp", "--eps0", "1", "--n", n, "--orders", "2..64"],
                           cwd=cwd, env={**os.environ, "PYTHONPATH": cwd}, capture_output=True, timeout=600)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            times.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        return float(np.median(times))

    for e0, n in ((1.0, 10**8), (1.0, 10**12), (0.1, 10**8), (0.1, 10**12), (4.0, 10**8), (1.0, 10**6)):
        new, old = run(ROOT, e0, n), run(base, e0, n)
        print(f"   eps0 = {e0}, n = {n:.0e}: new {new:.2f} s, {BASELINE} {old:.2f} s, ratio {old / new:.2f}x")
    for n in ("1e8", "1e12"):
        new, old = command(ROOT, n), command(base, n)
        print(f"   dptheory rdp --eps0 1 --n {n} --orders 2..64 (start-up included): new {new:.2f} s, "
              f"{BASELINE} {old:.2f} s, ratio {old / new:.2f}x")


_MANY = """
import sys, numpy as np
sys.path.insert(0, sys.argv[4])
from timing import best
from dptheory.shuffle import rdp
rdp.clone_pair_rdp(1.0, 10**4, [2.0])  # imports, outside the timing
orders = np.arange(2, 2 + int(sys.argv[1]), dtype=float)
t, c = best(lambda: rdp.clone_pair_rdp(1.0, int(float(sys.argv[2])), orders, stronger=sys.argv[3] == "1"), 2)
print(t, float(np.max((c.upper - c.lower) / c.upper)), c.upper[-1])
"""
#: main before the many-orders work
MANY_BASELINE = "83ce79a"


def section_many_orders():
    print(f"4. clone-pair curves of many orders, n = 1e6, eps0 = 1, rtol 1e-3 (CPU s, best of 2): this tree vs {MANY_BASELINE}")
    base = str(baseline.tree(MANY_BASELINE))

    def run(cwd, count, stronger):
        r = subprocess.run([sys.executable, "-W", "ignore", "-c", _MANY, str(count), "1e6", "1" if stronger else "0",
                            os.path.join(ROOT, "benchmarks")], cwd=cwd, env={**os.environ, "PYTHONPATH": cwd},
                           capture_output=True, text=True, timeout=900)
        return tuple(float(v) for v in r.stdout.split()) if r.returncode == 0 else (math.nan,) * 3

    for slug, stronger in (("chen-exact", False), ("stronger-clones", True)):
        for count in (255, 511, 1023):
            (t_new, w_new, top_new), (t_old, w_old, top_old) = run(ROOT, count, stronger), run(base, count, stronger)
            print(f"   {slug}, {count:4d} orders: new {t_new:5.2f} s, {MANY_BASELINE} {t_old:5.2f} s, ratio {t_old / t_new:5.1f}x;"
                  f" widest relative enclosure new {w_new:.1e} old {w_old:.1e}; upper at the last order new {top_new:.6g}"
                  f" old {top_old:.6g}")


_MIXTURE_ORDERS = """
import sys, numpy as np
sys.path.insert(0, sys.argv[2])
from timing import best
from dptheory.shuffle import rdp
rdp.upper_1_mixture(1.0, 10**6, [2, 3, 100])  # imports, outside the timing
orders = np.arange(2, 2 + int(sys.argv[1]))
t, v = best(lambda: rdp.upper_1_mixture(1.0, 10**6, orders), 1)
print(t, repr(v.tolist()))
"""
#: main before the windowed sum over i of Theorem 3.7
MIXTURE_BASELINE = "78060fc"


def section_mixture_orders():
    print(f"5. girgis-upper-1-mixture over many orders, n = 1e6, eps0 = 1 (CPU s): this tree vs {MIXTURE_BASELINE}"
          " (the sum over i of every B_3.7 term)")
    base = str(baseline.tree(MIXTURE_BASELINE))

    def run(cwd, count):
        r = subprocess.run([sys.executable, "-W", "ignore", "-c", _MIXTURE_ORDERS, str(count),
                            os.path.join(ROOT, "benchmarks")], cwd=cwd, env={**os.environ, "PYTHONPATH": cwd},
                           capture_output=True, text=True, timeout=1800)
        if r.returncode:
            return math.nan, None
        t, values = r.stdout.split(" ", 1)
        return float(t), np.array(eval(values))

    for count in (255, 1023, 8191):
        (t_new, v_new), (t_old, v_old) = run(ROOT, count), run(base, count)
        change = float(np.max(np.abs(v_new / v_old - 1))) if v_new is not None and v_old is not None else math.nan
        print(f"   {count:4d} orders: new {t_new:6.2f} s ({1e3 * t_new / count:.2f} ms per order), {MIXTURE_BASELINE}"
              f" {t_old:6.2f} s ({1e3 * t_old / count:.2f} ms per order), ratio {t_old / t_new:5.1f}x;"
              f" largest relative change of a value {change:.1e}")


SECTIONS = {"0": section_table, "1": section_curves, "2": section_mixture, "3": section_high_orders,
            "4": section_many_orders, "5": section_mixture_orders}


def main():
    for key in sys.argv[1:] or SECTIONS:
        SECTIONS[key]()


if __name__ == "__main__":
    main()
