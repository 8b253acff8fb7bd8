"""``dptheory plot``: --list, a figure to a file, and bad input (exit 2, nothing written)."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from dptheory.cli import main  # noqa: E402
from dptheory.plots import FIGURES  # noqa: E402


def test_list_names_every_figure_with_its_parameters(capsys):
    assert main(["plot", "--list"]) == 0
    out = capsys.readouterr().out
    for fig in FIGURES.values():
        assert f"{fig.name}\n    {fig.description}\n" in out
    assert "orders=2,3,4,6,8,12,16,24,32,48,64 eps0=2.0 n=10000" in out


def test_plot_writes_the_file(tmp_path, capsys):
    out = tmp_path / "chen3.pdf"
    assert main(["plot", "chen-figure-3", "orders=2,8", "eps0=1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == f"wrote {out}" and all(line.startswith("note: ") for line in printed[1:])
    assert out.read_bytes().startswith(b"%PDF")


def test_default_output_is_named_after_the_figure(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["plot", "chen-figure-3", "orders=2,4"]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["chen-figure-3.png"]


@pytest.mark.parametrize("args,match", [
    (["nope"], "figure = 'nope' is unknown: must be one of amplification-vs-n, "),
    ([], "give a name"),
    (["chen-figure-3", "colour=red"], "has no parameter colour"),
    (["chen-figure-3", "eps0"], "write key=value"),
    (["chen-figure-3", "eps0=x"], "eps0 = 'x' is invalid"),
    (["chen-figure-3", "--out", "x.jpg"], r"must end in .png or .pdf"),
    (["chen-figure-3", "--out", "missing/x.png"], "does not exist"),
    (["amplification-vs-n", "n=1e5..1e3"], "n = '1e5..1e3' is invalid"),
])
def test_bad_input_exits_2_and_writes_nothing(args, match, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["plot", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dptheory plot: error: ") and match in err
    assert list(tmp_path.iterdir()) == []

