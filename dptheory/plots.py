"""Figures (optional: needs matplotlib, the ``plot`` extra)."""

from __future__ import annotations

import math


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("plots need matplotlib: pip install 'dptheory[plot]'") from exc
    return plt


def amplification_panels(panels: dict, path: str) -> None:
    """One panel per (mechanism, n, d): log2 of eps0/eps against eps0, one line per method
    (dashed for a refuted or unproven bound), as in Wang et al. (2024), Figures 1-2."""
    plt = _pyplot()
    keys = list(panels)
    cols = 4
    rows = math.ceil(len(keys) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.2 * rows), squeeze=False)
    for ax, key in zip(axes.ravel(), keys):
        data = panels[key]
        for method in dict.fromkeys(r["method"] for r in data):
            pts = [(r["eps0"], math.log2(r["ratio"])) for r in data if r["method"] == method]
            status = next(r["status"] for r in data if r["method"] == method)
            ax.plot(*zip(*pts), "--" if status != "proven" else "-", label=f"{method} ({status})")
        ax.set_title("{}, n={}, d={}".format(*key))
        ax.set_xlabel("eps0")
        ax.set_ylabel("log2(eps0/eps)")
    axes.ravel()[0].legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def line_panels(panels: dict, path: str, *, logy: bool = True) -> None:
    """Generic panels: ``{title: (xlabel, {label: (xs, ys)})}``, log-log by default; a label that
    ends in "(approximation)" or "(refuted)" is drawn dashed."""
    plt = _pyplot()
    keys = list(panels)
    cols = min(3, len(keys))
    rows = math.ceil(len(keys) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.5 * cols, 3.4 * rows), squeeze=False)
    for ax, title in zip(axes.ravel(), keys):
        xlabel, curves = panels[title]
        for label, (xs, ys) in curves.items():
            dashed = label.endswith("(approximation)") or label.endswith("(refuted)")
            ax.plot(xs, ys, "--" if dashed else "-", marker=".", label=label)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel(xlabel)
        if logy:
            ax.set_yscale("log")
        if xlabel in ("n", "T"):
            ax.set_xscale("log")
        ax.legend(fontsize=6)
    for ax in axes.ravel()[len(keys):]:
        ax.set_visible(False)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
