"""``dptheory sweep``: the command writes the library's sweep; bad input exits 2 and writes nothing.
(tests/cli/test_sweep.py is the traceback sweep of every command, a different thing.)"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dptheory import sweep as S
from dptheory.cli import main


def _clone_pair_delta(eps0: float, n: int, epsilon: float) -> float:
    """H_{e^epsilon}(P || Q) of the clone pair of Feldman, McMillan, Talwar (2021, Theorem 3.1),
    summed atom by atom from its definition (float64, log-space pmfs): C ~ Bin(n - 1, e^-eps0)
    clones, A ~ Bin(C, 1/2) of them of type 0, and the victim's message of type 0 with
    probability e^eps0/(e^eps0 + 1) under P, 1/(e^eps0 + 1) under Q. Counts C within 12 standard
    deviations of the mean (the rest has mass below 1e-30)."""
    from scipy.special import gammaln

    q, tp = math.exp(-eps0), 1 / (1 + math.exp(-eps0))
    tq, gamma = 1 - tp, math.exp(epsilon)
    mean, sd = (n - 1) * q, math.sqrt((n - 1) * q * (1 - q))
    lf = gammaln(np.arange(n + 2) + 1.0)  # log k!
    total = 0.0
    for c in range(max(0, int(mean - 12 * sd)), min(n - 1, int(mean + 12 * sd)) + 1):
        k = np.arange(c + 1)
        b = np.exp(lf[c] - lf[k] - lf[c - k] - c * math.log(2.0))  # Bin(c, 1/2) at 0..c
        b, b_minus = np.append(b, 0.0), np.append(0.0, b)  # at a and a - 1, a = 0..c+1
        p, qq = tp * b_minus + (1 - tp) * b, tq * b_minus + (1 - tq) * b
        weight = math.exp(lf[n - 1] - lf[c] - lf[n - 1 - c] + c * math.log(q) + (n - 1 - c) * math.log1p(-q))
        total += weight * float(np.sum(np.maximum(p - gamma * qq, 0.0)))
    return total


def test_sweep_shuffle_writes_the_grid(tmp_path, capsys):
    """Each row of the file against an independent computation: the clone bound's certified
    epsilon bracket [lower, upper] straddles delta = 1e-8 of the clone pair summed atom by atom
    (and is narrow: 1% outside it, delta is clearly on the right side); Erlingsson et al.'s bound
    is 12 eps0 sqrt(log(1/delta)/n) (their Corollary 5.3.1, with the constants of Balle et al.'s
    implementation), not applicable for eps0 > 1/2."""
    out = tmp_path / "r.csv"
    argv = ["sweep", "shuffle", "--eps0", "0.5,1", "--n", "1e3..1e4", "--delta", "1e-8",
            "--methods", "clones,efmrtt19", "--workers", "1", "-o", str(out)]
    assert main(argv) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out}: 4 grid points, 8 rows (0 points already there, 4 computed)"
    rows = S.read_rows(out, timing=False)
    assert sorted((float(r["eps0"]), int(r["n"]), r["method"]) for r in rows) == sorted(
        (e, n, m) for e in (0.5, 1.0) for n in (1000, 10000) for m in ("clones", "efmrtt19"))
    for r in rows:
        eps0, n = float(r["eps0"]), int(r["n"])
        assert float(r["delta"]) == 1e-8 and r["quantity"] == "epsilon" and r["kind"] == "upper"
        if r["method"] == "efmrtt19":
            if eps0 <= 0.5:
                value = 12 * eps0 * math.sqrt(math.log(1e8) / n)
                assert float(r["lower"]) <= value * (1 + 1e-12) and value <= float(r["upper"]) <= value * (1 + 1e-9)
            else:
                assert r["applicable"] in ("false", False) and "eps0" in r["note"].replace("\\epsilon_{0}", "eps0")
            continue
        lower, upper = float(r["lower"]), float(r["upper"])
        assert 0 < lower <= upper <= lower * (1 + 1e-2)
        assert _clone_pair_delta(eps0, n, upper) <= 1e-8 * (1 + 1e-6)
        assert _clone_pair_delta(eps0, n, lower) >= 1e-8 * (1 - 1e-6)
        assert _clone_pair_delta(eps0, n, upper * 1.01) < 1e-8 < _clone_pair_delta(eps0, n, lower * 0.99)
    # run again: everything is there
    assert main(argv) == 0
    assert "4 points already there, 0 computed" in capsys.readouterr().out


def test_sweep_rdp(tmp_path, capsys):
    out = tmp_path / "rdp.csv"
    assert main(["sweep", "rdp", "--eps0", "1", "--n", "1e3", "--orders", "2,3", "--methods", "girgis-upper-1",
                 "--workers", "1", "-o", str(out)]) == 0
    rows = S.read_rows(out)
    assert [(r["method"], r["quantity"]) for r in rows] == [("girgis-upper-1", "rdp")] * 2


@pytest.mark.parametrize("args,match", [
    (["--eps0", "1", "--n", "1e5..1e3"], "n = '1e5..1e3' is invalid"),
    (["--eps0", "x", "--n", "10"], "eps0 = 'x' is invalid"),
    (["--eps0", "1", "--n", "10", "--workers", "0"], "workers = 0"),
    (["--eps0", "1", "--n", "10", "--methods", "nope"], "methods = 'nope'"),
])
def test_bad_input_exits_2_and_writes_nothing(tmp_path, capsys, args, match):
    out = tmp_path / "r.csv"
    assert main(["sweep", "shuffle", *args, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dptheory sweep: error: ") and match in err
    assert list(tmp_path.iterdir()) == []


def test_unwritable_output_exits_2(tmp_path, capsys):
    assert main(["sweep", "shuffle", "--eps0", "1", "--n", "10", "-o", str(tmp_path / "missing" / "r.csv")]) == 2
    assert "output" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_missing_subcommand_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["sweep"])
    assert info.value.code == 2


def test_interrupt_says_how_to_resume(tmp_path, capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(S, "run", interrupted)
    out = tmp_path / "r.csv"
    assert main(["sweep", "shuffle", "--eps0", "1", "--n", "10", "-o", str(out)]) == 130
    assert f"the finished points are in {out}; run the same command again to resume" in capsys.readouterr().err
