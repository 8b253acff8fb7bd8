"""dptheory.sweep: the grid grammar, CSV rows equal to the library's own results, the same
content serially, on a process pool and on Dask, and resumption of interrupted sweeps."""

from __future__ import annotations

import csv
import dataclasses
import math

import pytest

from dptheory import sweep as S
from dptheory.shuffle import randomizers as R, rdp as shuffle_rdp
from dptheory.shuffle.methods import compare
from dptheory.validate import DomainError

# cheap methods of every shape: numerical (clones), exact enumeration (binary RR at small n), a
# lower bound, and one that does not apply (efmrtt19 needs n >= 1000)
METHODS = "clones,efmrtt19,exact,variation-ratio-lower"


def small_sweep():
    return S.shuffle_sweep("0.5,2", "10,20", delta="1e-3,1e-6", methods=METHODS, randomizer="binary-rr")


@pytest.fixture(scope="module")
def dask_address():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The sweep run serially in this process: the file every other run must reproduce."""
    path = tmp_path_factory.mktemp("ref") / "ref.csv"
    run = S.run(small_sweep(), path, workers=1)
    assert (run.points, run.resumed, run.computed, run.rows) == (8, 0, 8, 32)
    return path


def content(path):
    return S.read_rows(path, timing=False)


# ------------------------------------------------------------------------------------ grammar
def test_parse_values_lists_and_log_ranges():
    assert S.parse_values("n", "1e3..1e9", integer=True) == [10**k for k in range(3, 10)]
    assert S.parse_values("eps0", "0.5,1,2,4") == [0.5, 1.0, 2.0, 4.0]
    assert S.parse_values("x", "0.5..40") == [0.5, 5.0, 40.0]  # both ends, a point per decade
    assert S.parse_values("x", "1..100:2") == pytest.approx([1, math.sqrt(10), 10, math.sqrt(1000), 100], rel=1e-12)
    assert S.parse_values("n", "1e3..1e4,3e4,1e3", integer=True) == [1000, 10000, 30000]  # mixed, deduplicated
    assert S.parse_values("x", [1, 2]) == [1.0, 2.0]


@pytest.mark.parametrize("text,match", [("5..1", "n = '5..1' is invalid"), ("0..10", "a..b"), ("abc", "a list"),
                                        ("", "no value"), ("1e3..1e5:0", "a..b:m"), ("1.5", "must be an integer"),
                                        ("0", r"integer in \[1, inf\]"), ("1..inf", "a..b")])
def test_parse_values_rejects(text, match):
    with pytest.raises(DomainError, match=match):
        S.parse_values("n", text, integer=True, low=1)


def test_parse_values_checks_the_range():
    with pytest.raises(DomainError, match="delta = 1.0"):
        S.parse_values("delta", "1e-3,1", low=0.0, low_open=True, high=1.0, high_open=True)


# ----------------------------------------------------------------------------- the rows
def test_rows_are_the_library_results(reference):
    """Each row carries exactly what compare() returns for its point (computed here directly)."""
    rows = content(reference)
    assert [r["method"] for r in rows[:4]] == METHODS.split(",")
    assert {(r["eps0"], r["n"], r["delta"]) for r in rows} == {
        (e, n, d) for e in ("0.5", "2.0") for n in ("10", "20") for d in ("0.001", "1e-06")}
    # grid order: eps0 outermost, then n, then delta
    assert [(r["eps0"], r["n"], r["delta"]) for r in rows[::4]][:3] == [("0.5", "10", "0.001"), ("0.5", "10", "1e-06"),
                                                                      ("0.5", "20", "0.001")]
    for row in rows[::3]:
        direct = compare(R.binary_rr(float(row["eps0"])), int(row["n"]), delta=float(row["delta"]),
                         methods=[row["method"]])[0]
        d = direct.as_dict()
        assert row["applicable"] == ("true" if d["applicable"] else "false")
        assert (row["kind"], row["status"], row["source"]) == (d["kind"], d["status"], d["source"])
        if d["applicable"]:
            assert (float(row["lower"]), float(row["upper"])) == (d["lower"], d["upper"])
        else:
            assert row["note"] == d["note"] and row["lower"] == row["upper"] == ""
    applies = {r["method"]: r["applicable"] for r in rows}
    assert applies == {"clones": "true", "efmrtt19": "false", "exact": "true", "variation-ratio-lower": "true"}
    assert all(r["point_rows"] == "4" and r["quantity"] == "epsilon" and r["epsilon"] == "" for r in rows)


def test_process_pool_and_dask_give_the_reference_content(reference, dask_address, tmp_path):
    """Dask computes the whole grid; the pool resumes a file cut after two points (so it also
    saves points finishing out of order): both give the serial run's content."""
    lines = reference.read_text().splitlines(keepends=True)
    (tmp_path / "pool.csv").write_text("".join(lines[:1 + 8]))
    pool = S.run(small_sweep(), tmp_path / "pool.csv", workers=2)
    dask = S.run(small_sweep(), tmp_path / "dask.csv", scheduler=dask_address)
    assert (pool.resumed, pool.computed, dask.computed) == (2, 6, 8)
    ref = content(reference)
    assert content(pool.path) == ref
    assert content(dask.path) == ref
    # the timing column is the only one left out of the comparison, and it is filled
    assert S.read_rows(dask.path)[0].keys() - ref[0].keys() == {"seconds"}
    assert float(S.read_rows(dask.path)[0]["seconds"]) > 0


def test_delta_of_epsilon_rows(tmp_path):
    run = S.run(S.shuffle_sweep("1", "10", epsilon="0.1,0.5", methods="clones", randomizer="binary-rr"),
                tmp_path / "d.csv", workers=1)
    rows = S.read_rows(run.path)
    assert [(r["epsilon"], r["delta"], r["quantity"]) for r in rows] == [("0.1", "", "delta"), ("0.5", "", "delta")]
    assert float(rows[0]["upper"]) > float(rows[1]["upper"])  # delta decreases in epsilon


def test_rdp_sweep_curves_and_conversion(tmp_path):
    curves = S.run(S.rdp_sweep("1", "1e3,1e4", orders="2,4", methods="girgis-upper-1,girgis-lower"),
                   tmp_path / "c.csv", workers=1)
    rows = S.read_rows(curves.path)
    assert curves.rows == 8 and {r["quantity"] for r in rows} == {"rdp"}
    upper = {(r["n"], r["params"]): float(r["upper"]) for r in rows if r["method"] == "girgis-upper-1"}
    lower = {(r["n"], r["params"]): float(r["lower"]) for r in rows if r["method"] == "girgis-lower"}
    assert upper.keys() == lower.keys() and all(upper[k] >= lower[k] for k in upper)
    conv = S.run(S.rdp_sweep("1", "1e3", orders="2..32", delta="1e-6", methods="girgis-upper-1"),
                 tmp_path / "e.csv", workers=1)
    (row,) = S.read_rows(conv.path)
    assert row["quantity"] == "epsilon" and row["delta"] == "1e-06"
    assert float(row["upper"]) == shuffle_rdp.epsilon("girgis-upper-1", 1.0, 1000, 1e-6, orders=range(2, 33)).upper
    # without orders: the search over orders of `dptheory rdp --delta`
    searched = S.run(S.rdp_sweep("1", "1e3", delta="1e-6", methods="girgis-upper-1"), tmp_path / "s.csv", workers=1)
    (row,) = S.read_rows(searched.path)
    assert float(row["upper"]) == shuffle_rdp.epsilon("girgis-upper-1", 1.0, 1000, 1e-6).upper


# ---------------------------------------------------------------------------------- resume
def counting(sweep):
    """The sweep with its point function recording the points it computes (serial runs only)."""
    calls = []

    def point(task):
        calls.append((task["eps0"], task["n"], task["delta"]))
        return sweep.point(task)

    return dataclasses.replace(sweep, point=point), calls


def test_resume_from_a_truncated_file(reference, tmp_path):
    text = reference.read_text()
    lines = text.splitlines(keepends=True)
    partial = tmp_path / "partial.csv"
    # header + 3 complete points (12 rows) + 2 rows of the 4th point + half of the next line
    partial.write_text("".join(lines[:1 + 12 + 2]) + lines[15][:17])
    sweep, calls = counting(small_sweep())
    run = S.run(sweep, partial, workers=1)
    assert (run.resumed, run.computed) == (3, 5)
    assert calls == [(e, n, d) for e in (0.5, 2.0) for n in (10, 20) for d in (1e-3, 1e-6)][3:]
    assert content(partial) == content(reference)
    # a complete file: nothing runs
    sweep, calls = counting(small_sweep())
    assert S.run(sweep, partial, workers=1).computed == 0 and calls == []
    assert content(partial) == content(reference)


def test_resume_with_a_gap_keeps_the_grid_order(reference, tmp_path):
    lines = reference.read_text().splitlines(keepends=True)
    gap = tmp_path / "gap.csv"
    gap.write_text("".join(lines[:1 + 4] + lines[1 + 8:1 + 28]))  # points 1 and 7 (0-based) missing
    sweep, calls = counting(small_sweep())
    run = S.run(sweep, gap, workers=1)
    assert calls == [(0.5, 10, 1e-6), (2.0, 20, 1e-6)]
    assert (run.resumed, run.computed) == (6, 2)
    assert content(gap) == content(reference)


def test_interrupted_run_saves_finished_points(tmp_path, monkeypatch):
    """A run that stops (here: a task fails) leaves the points finished before it in the file."""
    sweep = small_sweep()
    out = tmp_path / "i.csv"

    def failing(task):
        if task["eps0"] == 2.0:
            raise KeyboardInterrupt  # stands for a user's Ctrl-C or a killed worker
        return S.shuffle_point(task)

    with pytest.raises(KeyboardInterrupt):
        S.run(dataclasses.replace(sweep, point=failing), out, workers=1)
    rows = S.read_rows(out)
    assert len(rows) == 16 and {r["eps0"] for r in rows} == {"0.5"}
    run = S.run(sweep, out, workers=1)
    assert (run.resumed, run.computed) == (4, 4)


# ------------------------------------------------------------------------------ bad input
def test_bad_output_paths(tmp_path):
    with pytest.raises(DomainError, match="does not exist"):
        S.run(small_sweep(), tmp_path / "no" / "such" / "dir.csv")
    with pytest.raises(DomainError, match="is a directory"):
        S.run(small_sweep(), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_file_of_another_sweep_is_left_alone(reference, tmp_path):
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    with pytest.raises(DomainError, match="not a partial run of this sweep"):
        S.run(small_sweep(), other)
    assert other.read_text() == "a,b\n1,2\n"
    # the same columns but points outside the grid
    narrower = S.shuffle_sweep("0.5", "10", delta="1e-3", methods=METHODS, randomizer="binary-rr")
    copy = tmp_path / "copy.csv"
    copy.write_text(reference.read_text())
    with pytest.raises(DomainError, match="outside this grid"):
        S.run(narrower, copy)
    assert copy.read_text() == reference.read_text()


@pytest.mark.parametrize("kwargs,match", [
    ({"delta": "1e-3", "epsilon": "1"}, "not both"),
    ({"methods": "clones,wheel"}, "methods = 'wheel'"),
    ({"randomizer": "wheel"}, "randomizer = 'wheel'"),
    ({"randomizer": "grr"}, "needs --d"),
    ({"delta": "2"}, "delta = 2.0"),
    ({"rtol": 0}, "rtol"),
])
def test_bad_grid(kwargs, match):
    with pytest.raises(DomainError, match=match):
        S.shuffle_sweep("1", "10", **kwargs)
    with pytest.raises(DomainError, match="eps0 = -1"):
        S.shuffle_sweep("-1", "10")


def test_an_unreachable_scheduler_writes_nothing(reference, tmp_path, monkeypatch):
    """A sweep whose Dask scheduler was unreachable exited 2 but left a header-only CSV at the
    output path. Now nothing is written: no file, and a partial file of this sweep stays as it was."""
    pytest.importorskip("distributed")
    from dptheory import executor

    monkeypatch.setattr(executor, "CONNECT_TIMEOUT", "0.5s")
    target = tmp_path / "out.csv"
    with pytest.raises(DomainError, match="cannot connect"):
        S.run(small_sweep(), target, scheduler="tcp://127.0.0.1:9")
    assert not target.exists()
    partial = tmp_path / "partial.csv"
    text = reference.read_text().splitlines(keepends=True)
    partial.write_text("".join(text[:7]) + text[7][:10])  # complete points, then a cut line
    before = partial.read_bytes()
    with pytest.raises(DomainError, match="cannot connect"):
        S.run(small_sweep(), partial, scheduler="tcp://127.0.0.1:9")
    assert partial.read_bytes() == before


def test_local_dask_cluster_leaves_no_scratch_directory(tmp_path):
    """`--scheduler local` created /tmp/dask-scratch-space; its scratch space is now a temporary
    directory removed after the run (TMPDIR pointed at an empty directory to see it)."""
    pytest.importorskip("distributed")
    import os
    import subprocess
    import sys

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    code = ("from dptheory import sweep as S\n"
            "s = S.shuffle_sweep('1', '10', delta='1e-3', methods='clones', randomizer='binary-rr')\n"
            f"S.run(s, {str(tmp_path / 'dask.csv')!r}, scheduler='local', workers=1)\n")
    env = {**os.environ, "TMPDIR": str(scratch)}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=300, capture_output=True)
    assert (tmp_path / "dask.csv").exists() and list(scratch.iterdir()) == []
