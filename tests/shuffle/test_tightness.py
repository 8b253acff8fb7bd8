"""docs/tightness.md: its table is the output of benchmarks/bench_tightness.py (the rows at
n <= 1000 are recomputed here), it covers the grid the page promises, and no proven upper bound
is below the exact value."""

from __future__ import annotations

import pathlib
import re

import pytest

from dptheory.shuffle import tightness as T

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "tightness.md"


def _table(marker="tightness-table"):
    text = DOC.read_text()
    body = text.split(f"<!-- {marker}:start -->", 1)[1].split(f"<!-- {marker}:end -->", 1)[0]
    lines = [ln for ln in body.strip().splitlines() if ln.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = []
    for ln in lines[2:]:
        cells = [c.strip() for c in ln.strip("|").split("|")]
        lo, hi = map(float, re.findall(r"[-+0-9.e]+", cells[3]))
        ratios = {m: float(v) for m, v in zip(head[4:], cells[4:]) if v != "-"}
        rows.append(dict(randomizer=cells[0], eps0=float(cells[1]), n=int(float(cells[2])), exact=(lo, hi),
                         ratios=ratios))
    return head[4:], rows


def test_the_table_covers_the_grid():
    _, rows = _table()
    binary = {(r["eps0"], r["n"]) for r in rows if r["randomizer"] == "binary-rr"}
    for eps0 in (0.5, 1.0, 2.0, 4.0, 8.0):
        for n in (100, 1000, 10000, 100000, 1000000):
            assert (eps0, n) in binary, (eps0, n)
    assert any(r["randomizer"].startswith("grr(") for r in rows)


def test_no_upper_bound_below_the_exact_value():
    _, rows = _table()
    for r in rows:
        assert r["exact"][0] <= r["exact"][1]
        for m, ratio in r["ratios"].items():
            # ratios are printed to 4 decimals (rounded to nearest)
            assert ratio >= 1 - 5e-5, (r, m)


@pytest.mark.parametrize("eps0", [0.5, 1.0, 4.0])
def test_rows_at_small_n_are_the_library_output(eps0):
    methods, rows = _table()
    for r in rows:
        if r["randomizer"] != "binary-rr" or r["eps0"] != eps0 or r["n"] > 1000:
            continue
        row = T.row("binary-rr", eps0, r["n"], 1e-6, methods=methods)
        assert row.exact.lower == pytest.approx(r["exact"][0], rel=1e-5)
        assert row.exact.upper == pytest.approx(r["exact"][1], rel=1e-5)
        assert set(row.ratios) == set(r["ratios"])
        for m, v in row.ratios.items():
            assert v == pytest.approx(r["ratios"][m], abs=2e-4)


def test_grr_table_covers_the_search_sizes_and_no_bound_is_below():
    _, rows = _table("tightness-grr-table")
    seen = {(r["randomizer"].rstrip("*"), r["n"]) for r in rows}
    assert {("grr(3)", 300), ("grr(8)", 40)} <= seen
    for r in rows:
        # a star: the exact column is a lower bound or an enclosure whose ends did not meet
        lo, hi = r["exact"]
        assert r["randomizer"].endswith("*") == (hi > lo * (1 + 1e-3)), r
        for m, ratio in r["ratios"].items():
            assert ratio >= 1 - 5e-5, (r, m)


@pytest.mark.slow
def test_grr_rows_are_the_library_output():
    methods, rows = _table("tightness-grr-table")
    for r in rows:
        if r["n"] > 100:
            continue
        row = T.row(r["randomizer"].rstrip("*"), r["eps0"], r["n"], 1e-6, methods=methods)
        assert row.randomizer == r["randomizer"]
        assert row.exact.lower == pytest.approx(r["exact"][0], rel=1e-5)
        for m, v in row.ratios.items():
            assert v == pytest.approx(r["ratios"][m], abs=2e-4)
