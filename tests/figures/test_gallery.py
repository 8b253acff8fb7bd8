"""docs/figures.md and docs/figures/ (``dptheory plot --gallery docs``) are not stale: every
registered figure is there with its current parameters, caption and data. The data is compared
(not the pixels): recomputed at the defaults for the figures that take about a second, every
figure under ``-m slow``. Regenerate with ``dptheory plot --gallery docs``."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from dptheory.plots import FIGURES, _json_value  # noqa: E402

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"
#: figures cheap enough at their defaults for the default run (under a second of CPU each; rdp-curves,
#: 1.7 s, runs under -m slow with the others)
QUICK = ("girgis-figure-2", "chen-figure-2", "chen-figure-3", "shuffle-tradeoff", "delta-divergence",
         "kaissis-figure-2", "kaissis-figure-8", "wang-su-figure-3b", "wang-su-figure-4")

STALE = "docs/figures is stale: run `dptheory plot --gallery docs`"


def stored(name: str) -> dict:
    path = DOCS / "figures" / f"{name}.json"
    assert path.exists() and (DOCS / "figures" / f"{name}.png").exists(), f"{name} missing: {STALE}"
    return json.loads(path.read_text())


@pytest.mark.parametrize("name", list(FIGURES))
def test_every_figure_is_in_the_gallery_with_its_parameters(name):
    doc = stored(name)
    assert doc["parameters"] == {k: _json_value(v) for k, v in FIGURES[name].defaults.items()}, STALE
    assert doc["description"] == FIGURES[name].description, STALE
    page = (DOCS / "figures.md").read_text()
    assert f"![{name}](figures/{name}.png)" in page and doc["caption"] in page, STALE


def same_data(doc: dict, fresh: dict) -> None:
    assert doc["caption"] == fresh["caption"], STALE
    assert len(doc["panels"]) == len(fresh["panels"]), STALE
    for a, b in zip(doc["panels"], fresh["panels"]):
        assert a["title"] == b["title"] and len(a["series"]) == len(b["series"]), STALE
        for s, t in zip(a["series"], b["series"]):
            assert (s["label"], s["method"], s["kind"], s["status"]) == (t["label"], t["method"], t["kind"], t["status"])
            for key in ("x", "y"):
                u = np.array([np.nan if v is None else v for v in s[key]], dtype=float)
                v = np.array([np.nan if v is None else v for v in t[key]], dtype=float)
                assert np.allclose(u, v, rtol=1e-9, atol=0, equal_nan=True), (s["label"], key, STALE)


@pytest.mark.parametrize("name", QUICK)
def test_the_quick_figures_data_is_current(name):
    same_data(stored(name), FIGURES[name].compute().as_dict())


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in FIGURES if n not in QUICK])
def test_every_figures_data_is_current(name):
    same_data(stored(name), FIGURES[name].compute().as_dict())


def test_a_changed_number_is_detected():
    """The comparison can fail: one point moved by 1e-6 relative is stale."""
    doc = stored("chen-figure-3")
    fresh = json.loads(json.dumps(doc))
    fresh["panels"][0]["series"][0]["y"][0] *= 1 + 1e-6
    with pytest.raises(AssertionError):
        same_data(doc, fresh)
