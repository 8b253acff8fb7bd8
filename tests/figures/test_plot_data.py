"""``dptheory plot NAME --data FILE`` and ``--json``: the numbers behind every curve with its
method, kind and status, from the computation that drew the figure; notes (a disagreement with
the paper, parameters chosen here) printed with the file names."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from dptheory import plots  # noqa: E402
from dptheory.cli import main  # noqa: E402


def test_data_csv_holds_every_point_of_every_curve(tmp_path, capsys):
    out, data = tmp_path / "g2.png", tmp_path / "g2.csv"
    args = ["plot", "girgis-figure-2", "orders=2,100,500", "n=1e4", "eps0=3", "--out", str(out), "--data", str(data)]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"wrote {out}\nwrote {data}\nnote: Disagreement with the paper: in panel (a) UB1")
    rows = list(csv.DictReader(data.open()))
    assert {r["method"] for r in rows} == {"girgis-upper-1", "girgis-upper-2", "girgis-lower", "erlingsson-rdp"}
    # every row says what was computed: the figure's parameters, given or default, as the command takes them
    assert {r["parameters"] for r in rows} == {"orders=2,100,500 n=1e4 eps0=3 order=100"}
    assert {(r["method"], r["kind"], r["status"]) for r in rows} >= {("girgis-lower", "lower", "proven"),
                                                                      ("girgis-upper-1", "upper", "proven")}
    # the same numbers as the library's own curves
    from dptheory.shuffle import rdp

    ub1 = [float(r["y"]) for r in rows if r["panel"] == "1" and r["method"] == "girgis-upper-1"]
    assert np.array_equal(ub1, rdp.upper_1(0.1, 10**4, np.array([2.0, 100.0, 500.0])))


def test_json_on_standard_output(tmp_path, capsys):
    """--json and --data FILE.json give the document every command prints: {command, version,
    parameters, results}, the figure's parameters (given or default) under parameters."""
    from dptheory import __version__

    out, data = tmp_path / "c3.png", tmp_path / "c3.json"
    assert main(["plot", "chen-figure-3", "orders=2,4", "--json", "--out", str(out), "--data", str(data)]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert captured.err.startswith(f"wrote {out}")
    assert json.loads(data.read_text()) == doc
    assert list(doc) == ["command", "version", "parameters", "results"]
    assert doc["command"] == "plot" and doc["version"] == __version__ and doc["parameters"]["n"] == 10000
    assert doc["parameters"]["figure"] == "chen-figure-3" and doc["parameters"]["orders"] == "2,4"
    figure = doc["results"]
    series = {s["method"]: s for s in figure["panels"][0]["series"]}
    assert series["chen-gdp"]["kind"] == "approximation" and series["chen-gdp"]["status"] == "not a bound"
    assert series["girgis-upper-1"]["x"] == [2.0, 4.0] and figure["caption"].startswith("Chen, Cao, Ge (2024) Figure 3")


def test_figure_and_data_come_from_one_computation(tmp_path, monkeypatch):
    """render computes the figure function once and writes both files from that result."""
    calls = []
    fig = plots.figure("chen-figure-3")
    real = fig.function()
    monkeypatch.setattr(plots.Figure, "function", lambda self: (lambda **kw: (calls.append(kw), real(**kw))[1]))
    plots.render("chen-figure-3", tmp_path / "f.png", data=tmp_path / "f.json", orders="2,4")
    assert len(calls) == 1
    assert json.loads((tmp_path / "f.json").read_text())["parameters"]["orders"] == "2,4"


def test_bad_data_path_writes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["plot", "chen-figure-3", "--data", "x.txt"]) == 2
    assert "must end in .csv or .json" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_list_says_which_parameters_were_chosen(capsys):
    assert main(["plot", "--list"]) == 0
    out = capsys.readouterr().out
    assert "wang-figure-1\n" in out and "    chosen here: The paper states neither δ nor the subset size k" in out


def test_every_caption_names_each_curve_kind_and_status():
    from tests.figures.small import SMALL

    for name in ("girgis-figure-3", "wang-figure-1", "chen-figure-2"):
        c = plots.FIGURES[name].compute(**SMALL[name])
        for label, _method, kind, status in c.curves():
            assert f"{plots.plain(label)}: {plots._KIND_WORDS[kind]}, {status}" in c.caption
