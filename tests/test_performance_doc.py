"""docs/performance.md: its table is the one benchmarks/report.py writes (between the markers, the
header, one row per case of the report, in its order, each with numbers where numbers go). The
times themselves are volatile and are not checked, nor is the benchmark run here."""

from __future__ import annotations

import importlib.util
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "performance.md"


def _report():
    spec = importlib.util.spec_from_file_location("bench_report", ROOT / "benchmarks" / "report.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_report", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _table(report):
    text = DOC.read_text()
    assert text.count(report.START) == 1 and text.count(report.END) == 1
    body = text.split(report.START, 1)[1].split(report.END, 1)[0]
    lines = [ln for ln in body.strip().splitlines() if ln.startswith("|")]
    head = tuple(c.strip() for c in lines[0].strip("|").split("|"))
    rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in lines[2:]]
    return head, rows


def test_the_table_is_the_reports():
    report = _report()
    head, rows = _table(report)
    assert head == report.HEADER
    number = re.compile(r"^[0-9]+(\.[0-9]+)?$")
    assert [(int(r[0]), r[1]) for r in rows] == report.case_jobs()
    for r in rows:
        assert len(r) == len(report.HEADER)
        assert all(number.match(r[i]) for i in (2, 4, 5)), r


def test_every_item_of_the_speed_work_has_a_row():
    report = _report()
    assert {item for item, _ in report.case_jobs()} == {1, 2, 3, 4, 5, 6}


def test_the_readme_links_the_page():
    assert "docs/performance.md" in (ROOT / "README.md").read_text()
