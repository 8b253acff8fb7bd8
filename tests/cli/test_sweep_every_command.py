"""Every subcommand over its inputs' range: n from 1 to 1e30, each numeric parameter at its edges,
each list with empty items. Every command line must end in exit status 0 (an answer) or 2 (a
message naming the input), never a traceback.

The default run calls the CLI's ``main`` in-process on a representative subset; ``-m slow`` runs
the exhaustive list in subprocesses, each within a minute of CPU time and 2 GiB of resident memory
(the whole list takes about two minutes on two cores).
"""

from __future__ import annotations

import itertools
import os
import resource
import signal
import subprocess
import sys

import pytest

from dptheory.cli import main


FAST = [
    # n from 1 to 1e30
    ("shuffle", "--n", "1", "--methods", "clones,exact,variation-ratio-labelled"),
    ("shuffle", "--n", "2", "--randomizer", "grr", "--d", "3", "--methods", "exact,variation-ratio-lower"),
    ("shuffle", "--n", "1e30", "--methods", "clones,variation-ratio-labelled"),
    ("shuffle", "--n", "1e30", "--epsilon", "0.1", "--methods", "clones"),
    ("shuffle", "--n", "0"), ("shuffle", "--n", "-5"), ("shuffle", "--n", "1.5"), ("shuffle", "--n", "inf"),
    ("shuffle", "--n", "nan"), ("shuffle", "--n", ""),
    ("rdp", "--n", "1", "--orders", "2,4"), ("rdp", "--n", "2", "--orders", "2", "--methods", "chen-exact"),
    ("rdp", "--n", "1e30", "--orders", "2,4"),
    ("rdp", "--n", "1e30", "--delta", "1e-6", "--methods", "girgis-upper-1"),
    ("fdp", "shuffle", "--n", "1", "--epsilon", "0.1"), ("fdp", "shuffle", "--n", "1e30", "--epsilon", "0.1"),
    ("compare", "shuffle(eps0=1, n=1)", "gaussian(mu=1)"), ("compare", "shuffle(eps0=1, n=0)", "gaussian(mu=1)"),
    # numeric parameters at their edges
    ("shuffle", "--eps0", "1e-300", "--n", "100", "--methods", "clones"),
    ("shuffle", "--eps0", "1e300", "--n", "100", "--methods", "clones"),
    ("shuffle", "--eps0", "-1"), ("shuffle", "--delta", "0"), ("shuffle", "--delta", "1"),
    ("shuffle", "--delta", "1e-300", "--n", "100", "--methods", "clones"),
    ("shuffle", "--epsilon", "0", "--n", "100", "--methods", "clones"),
    ("shuffle", "--epsilon", "1e300", "--n", "100", "--methods", "clones"),
    ("shuffle", "--rtol", "0"), ("shuffle", "--rtol", "2"),
    ("shuffle", "--randomizer", "subset-selection", "--d", "2", "--k", "1", "--n", "10", "--methods", "exact"),
    ("shuffle", "--randomizer", "subset-selection", "--d", "2", "--k", "2"),
    ("rdp", "--orders", "1"), ("rdp", "--orders", "1e300", "--n", "100", "--methods", "girgis-upper-1"),
    ("rdp", "--compositions", "0"), ("rdp", "--compositions", "1e300", "--n", "100", "--orders", "2"),
    ("gdp", "--mu", "0"), ("gdp", "--mu", "1e-300"), ("gdp", "--mu", "1e300"), ("gdp", "--mu", "inf"),
    ("gdp", "--mu", "1e-6", "--epsilon", "1e10"), ("gdp", "--mu", "1e6", "--epsilon", "1e10"),
    ("gdp", "--mu", "1e-6", "--delta", "1e-300"), ("gdp", "--mu", "1e6", "--delta", "1e-300"),
    ("shuffle", "--eps0", "300", "--n", "100"), ("rdp", "--eps0", "300", "--n", "100"),
    ("fdp", "shuffle", "--eps0", "300", "--n", "100"), ("rdp", "--orders", "1e4", "--n", "1e9", "--eps0", "10"),
    ("rdp", "--orders", "2..1e9"), ("mechanism", "gaussian", "--sigma", "1e-6"), ("mechanism", "gaussian", "--sigma", "1e6"),
    ("gdp", "--epsilon", "0"), ("gdp", "--epsilon", "1e300"), ("gdp", "--delta", "1e-300"),
    ("gdp", "--compose", "1e30"), ("gdp", "--compose", "0"), ("gdp", "--digits", "15", "--epsilon", "1"),
    ("mechanism", "gaussian", "--sigma", "1e-300"), ("mechanism", "gaussian", "--sigma", "1e300"),
    ("mechanism", "laplace", "--scale", "0"), ("mechanism", "rr", "--k", "1e6"), ("mechanism", "rr", "--eps0", "700"),
    ("mechanism", "rr", "--orders", "1e300"),
    ("fdp", "shuffle", "--eps0", "1e-6", "--n", "100", "--epsilon", "0"),
    ("fdp", "shuffle", "--eps0", "50", "--n", "100", "--epsilon", "0.1"),
    ("fdp", "shuffle", "--alpha", "0,1", "--n", "10"),
    ("fdp", "mixture", "--weights", "1", "--pair", "1,0:0,1"),
    ("fdp", "mixture", "--weights", "0.5,0.5", "--pair", "1,0:0,1"),
    ("fdp", "dpgd", "--sigma", "1e-300", "--points", "11", "--cells", "100"),
    ("fdp", "dpgd", "--points", "2"), ("fdp", "dpgd", "--show", "1e9"),
    ("compare", "gaussian(mu=1e300)", "pp()"), ("compare", "laplace(eps=1e-300)", "bnp()"),
    ("compare", "rr(eps=1, k=1e30)", "pp()"), ("compare", "gaussian(mu=", "pp()"),
    ("formula", ""), ("formula", "zzz"),
    # empty items
    ("shuffle", "--methods", ",,"), ("rdp", "--orders", ","), ("fdp", "shuffle", "--epsilon", ","),
    ("fdp", "dpgd", "--epsilon", ","), ("mechanism", "gaussian", "--orders", ""),
    ("fdp", "mixture", "--weights", "", "--pair", "1,0:0,1"),
]


def _run(argv):
    try:
        return main(list(argv))
    except SystemExit as exc:  # argparse's usage errors
        return exc.code


def _cases(argvs):
    return [pytest.param(a) for a in argvs]


@pytest.mark.parametrize("argv", _cases(FAST), ids=" ".join)
def test_every_command_answers_or_names_the_input(capsys, tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    code = _run(argv)
    err = capsys.readouterr().err
    assert code in (0, 2) and "Traceback" not in err, (argv, code, err)
    if code == 2:
        assert "error" in err, err


# ---------------------------------------------------------------------------- exhaustive (slow)
N_VALUES = ["1", "2", "10", "1e3", "1e6", "1e9", "1e12", "1e15", "1e17", "1e20", "1e30"]
EXHAUSTIVE = [
    *[("shuffle", "--n", n) for n in N_VALUES],
    *[("shuffle", "--n", n, "--epsilon", "0.1") for n in N_VALUES],
    *[("shuffle", "--n", n, "--randomizer", r, *extra) for n in ("1", "1e6", "1e20")
      for r, extra in (("binary-rr", ()), ("grr", ("--d", "3")), ("laplace", ()), ("local-hash", ("--l", "4")),
                       ("subset-selection", ("--d", "1000", "--k", "500")), ("unary-encoding", ("--d", "4")),
                       ("optimal-local-hash", ()))],
    *[("rdp", "--n", n) for n in N_VALUES],
    *[("rdp", "--n", n, "--delta", "1e-8") for n in N_VALUES],
    *[("fdp", "shuffle", "--n", n) for n in N_VALUES],
    *[("fdp", "shuffle", "--n", n, "--rounds", "10", "--epsilon", "0.5") for n in ("1", "1e3", "1e12", "1e30")],
    *[("compare", f"shuffle(eps0=1, n={n})", "gaussian(mu=1)") for n in ("1", "1e3", "1e12", "1e30")],
    *[(cmd, "--eps0", e) for cmd in ("shuffle", "rdp") for e in ("1e-6", "0.01", "10", "50", "700", "1e300")],
    *[("shuffle", "--delta", d) for d in ("1e-300", "1e-100", "0.5", "0.999999")],
    *[("shuffle", "--rtol", r) for r in ("1e-12", "1e-6", "0.5", "1")],
    *[("rdp", "--rtol", r) for r in ("1e-12", "1e-6", "1")],
    *[("gdp", "--digits", d) for d in ("15", "1000", "1001")],
    *[("gdp", "--epsilon", "1", "--digits", d) for d in ("15", "1000")],
    *[("fdp", "shuffle", "--digits", d) for d in ("15", "1000")],
    *[("fdp", "shuffle", "--rounds", t, "--epsilon", "0.5") for t in ("1", "1e3", "1e12")],
    ("report", "--n", "1", "-o", "r1", "--no-figures"), ("report", "--n", "1e30", "-o", "r2", "--no-figures"),
    ("report", "--n", "1e30", "--eps0", "300", "-o", "r3", "--no-figures"),
    ("report", "--n", "1e6", "--delta", "1e-300", "-o", "r4", "--no-figures"),
    ("sweep", "shuffle", "--eps0", "1", "--n", "1,1e30", "--methods", "clones", "--workers", "1", "-o", "s.csv"),
    ("sweep", "rdp", "--eps0", "1", "--n", "1,1e30", "--orders", "2", "--workers", "1", "-o", "r.csv"),
    ("sweep", "shuffle", "--eps0", "1e-6,300", "--n", "1,1e30", "--methods", "clones", "--workers", "1", "-o", "a.csv"),
    ("sweep", "shuffle", "--eps0", "1", "--n", "1e15", "--epsilon", "0.1", "--workers", "1", "-o", "b.csv"),
    ("sweep", "rdp", "--eps0", "1", "--n", "1e30", "--delta", "1e-8", "--workers", "1", "-o", "c.csv"),
    ("sweep", "shuffle", "--eps0", "1", "--n", "1e3", "--rtol", "1e-12", "--workers", "1", "-o", "d.csv"),
    # eps0 at the ends of its range, in every command that takes it
    *[(cmd, "--eps0", e, "--n", "1e4") for cmd in ("shuffle", "rdp") for e in ("1e-6", "300")],
    *[("fdp", "shuffle", "--eps0", e, "--n", "1e4", "--epsilon", "0.1") for e in ("1e-6", "300")],
    # DP-SGD: noise, rate, steps and orders at their edges
    *[("mechanism", "sgm", "--sigma", s_, "--q", q, "--steps", t, "--delta", "1e-5")
      for s_, q, t in (("1", "0.01", "1e12"), ("1", "0.01", "1e30"), ("1e-6", "0.01", "10"), ("0.1", "0.01", "10"),
                       ("1e6", "0.01", "10"), ("1", "1", "10"), ("1", "1e-300", "10"), ("0.1", "0.5", "1e6"),
                       ("0.5", "0.01", "1e5"), ("0.8", "0.001", "1e4"))],
    ("mechanism", "sgm", "--sigma", "1", "--q", "0.01", "--steps", "1000", "--orders", "2..1e4"),
    ("mechanism", "sgm", "--sigma", "1", "--q", "0.01", "--steps", "1000", "--orders", "2..1e4:50"),
    ("mechanism", "sgm", "--sigma", "1", "--q", "0.01", "--steps", "1000", "--epsilon", "1e10"),
    ("mechanism", "sgm", "--sigma", "1", "--q", "0.01", "--steps", "1000", "--delta", "1e-300"),
    ("mechanism", "gaussian", "--sigma", "1", "--delta", "1e-300"), ("mechanism", "laplace", "--scale", "1e-300"),
    ("mechanism", "rr", "--eps0", "300", "--k", "1e6"), ("mechanism", "rr", "--eps0", "0", "--orders", "1e4"),
    ("compare", "sgm(sigma=1, p=0.01, steps=1e30)", "gaussian(mu=1)"),
    ("compare", "sgm(sigma=1e-6, p=1, steps=1e12)", "gaussian(mu=1)"),
    ("compare", "gaussian(mu=1)", "laplace(eps=1)", "--tol", "1e-300"),
    ("compare", "gaussian(mu=1)", "laplace(eps=1)", "--plot", "x.pdf"),
    ("fdp", "mixture", "--weights", "1e-300,1", "--pair", "1,0:0,1", "--pair", "0.5,0.5:0.5,0.5", "--epsilon", "1e10"),
    ("fdp", "dpgd", "--example", "D.2", "--a", "1e300", "--c", "1e-300"),
    ("fdp", "dpgd", "--example", "constant", "--mu", "1e6"), ("fdp", "dpgd", "--points", "1e6"),
    ("latex", "-o", "x.tex"), ("latex", "--fragment", "-o", "y.tex"),
    ("verify", "--quick", "--only", "gdp/delta"), ("verify", "--digits", "1001"),
    # figures: n, points and lists at their edges
    ("plot", "amplification-vs-n", "n=1,1e30", "--json"), ("plot", "rdp-curves", "n=1e30", "orders=2,1e4"),
    ("plot", "rdp-curves", "n=1", "--data", "d.csv"), ("plot", "shuffle-tradeoff", "n=1e30"),
    ("plot", "shuffle-tradeoff", "points=1e9"), ("plot", "delta-divergence", "points=1e9"),
    ("plot", "kaissis-figure-1", "points=1e5"), ("plot", "tightness", "n=1e30"),
    ("plot", "girgis-figure-2", "n=1e30", "orders=2,1e4"), ("plot", "amplification-vs-n", "n=1e3,,1e4"),
]


def _limit_memory():  # a hard stop at 4 GiB of address space; the test asserts the 2 GiB of resident memory
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


#: what a command line may use: a minute of CPU time (user + system, so that a loaded machine does
#: not fail it) and 2 GiB of resident memory; a child still running after KILL_AFTER s of wall time
#: is stopped
CPU_SECONDS, MAX_RSS_BYTES, KILL_AFTER = 60.0, 2 << 30, 240.0


def run_bounded(argv, cwd):
    """Run ``python -m dptheory argv`` in ``cwd``; return (exit status, stderr, CPU seconds, peak
    resident bytes) of that child alone (``os.wait4``: not mixed with other children)."""
    import tempfile
    import time

    env = {**os.environ, "MPLBACKEND": "Agg"}
    with tempfile.TemporaryFile("w+") as err:
        # a session of its own, so that a child stopped for time takes its worker processes with it
        proc = subprocess.Popen([sys.executable, "-m", "dptheory", *argv], cwd=cwd, env=env,
                                stdout=subprocess.DEVNULL, stderr=err, preexec_fn=_limit_memory, start_new_session=True)
        start = time.monotonic()
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > KILL_AFTER:
                os.killpg(proc.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.05)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return proc.returncode, err.read(), usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


@pytest.mark.slow
@pytest.mark.parametrize("argv", _cases(EXHAUSTIVE), ids=" ".join)
def test_exhaustive_sweep_in_bounded_time_and_memory(tmp_path, argv):
    code, err, cpu, rss = run_bounded(argv, tmp_path)
    print(f"SWEEP {' '.join(argv)!r} exit={code} cpu={cpu:.1f}s rss={rss / 2**20:.0f}MiB")
    assert code in (0, 2) and "Traceback" not in err, (argv, code, err[-2000:])
    assert cpu <= CPU_SECONDS, f"{' '.join(argv)}: {cpu:.0f} s of CPU time (at most {CPU_SECONDS:.0f})"
    assert rss <= MAX_RSS_BYTES, f"{' '.join(argv)}: {rss / 2**30:.2f} GiB resident (at most 2)"
