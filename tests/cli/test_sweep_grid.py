"""``dptheory sweep``: the command writes the library's sweep; bad input exits 2 and writes nothing.
(tests/cli/test_sweep.py is the traceback sweep of every command, a different thing.)"""

from __future__ import annotations

import pytest

from dptheory import sweep as S
from dptheory.cli import main


def test_sweep_shuffle_writes_the_grid(tmp_path, capsys):
    out = tmp_path / "r.csv"
    argv = ["sweep", "shuffle", "--eps0", "0.5,1", "--n", "1e3..1e4", "--delta", "1e-8",
            "--methods", "clones,efmrtt19", "--workers", "1", "-o", str(out)]
    assert main(argv) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out}: 4 grid points, 8 rows (0 points already there, 4 computed)"
    expected = S.shuffle_sweep("0.5,1", [1000, 10000], delta=1e-8, methods=["clones", "efmrtt19"])
    reference = tmp_path / "lib.csv"
    S.run(expected, reference, workers=1)
    assert S.read_rows(out, timing=False) == S.read_rows(reference, timing=False)
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
