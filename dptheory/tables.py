"""LaTeX tables of results for a paper: the shuffle table (``dptheory shuffle --latex``) and the RDP
tables (``dptheory rdp --latex``).

Each table has one notation and a fixed number of significant figures per numeric column
(``sig``), each end rounded outwards (a lower end down, an upper end up), every method named with
``\\cite`` of the papers its source names, every "n/a" with a lettered note giving the reason, and
a caption that states the setting in math. A table wider than the text is split into blocks of
columns; nothing is shrunk (:func:`dptheory.presentation.latex.table`).
"""

from __future__ import annotations

from typing import Sequence

from .presentation import latex as tex
from .presentation.citations import cite_keys
from .presentation.numbers import SIG
from .presentation.rows import curve_rows, epsilon_rows, result_rows


def titled(rows: list[dict], items, notion: str) -> list[dict]:
    """The rows with each method named readably, as its registry titles it (:mod:`dptheory.protocol`),
    and cited: a :class:`~dptheory.presentation.latex.Cited` cell with the keys its source names."""
    from . import protocol

    registry = protocol.registry(notion)
    sources = {}
    for item in items:
        d = item.as_dict()
        sources.setdefault(d["method"], d.get("source", ""))

    def name(method: str) -> str:
        return (registry[method].title or method) if method in registry else method

    return [{**r, "method": tex.Cited(name(r["method"]), tuple(cite_keys(sources.get(r["method"], ""))))}
            for r in rows]


def shuffle_table(results, quantity: str, parameters: dict, setting: dict, *, label: str | None = None,
                  sig: int = SIG, textwidth: float = tex.TEXTWIDTH) -> str:
    """Every method's certified interval of ``quantity`` (epsilon or delta) for one shuffle
    setting, as a booktabs table: method (cited), kind, status, lower end (rounded down), upper end
    (rounded up). ``parameters``: the randomizer's name, eps0 and n; ``setting``: the given delta or
    epsilon. Its label is ``label`` or one derived from the setting."""
    if label is None:
        label = tex.label(f"tab:shuffle-{parameters['randomizer']}", eps0=parameters["eps0"], n=parameters["n"],
                          **setting)
    rows = titled(result_rows(results), results, "shuffle")
    given = {"eps0": parameters["eps0"], "n": parameters["n"], **setting}
    randomizer = parameters["randomizer"]
    who = ("any $\\epsilon_0$-LDP randomizer" if randomizer == "general"
           else f"the randomizer {tex.escape(randomizer)}")
    caption = (f"Amplification by shuffling of {who}, {tex.setting(given)}: the certified interval of "
               f"${tex.quantity(quantity)}$ by each method (lower end rounded down, upper end rounded up).")
    return tex.table(rows, ["method", "kind", "status", "lower", "upper"],
                     headers=["method", "kind", "status", f"${tex.quantity(quantity)}$, lower",
                              f"${tex.quantity(quantity)}$, upper"],
                     caption=caption, label=label, sig=sig, textwidth=textwidth)


def rdp_epsilon_table(results, setting: dict, *, label: str, sig: int = SIG,
                      textwidth: float = tex.TEXTWIDTH) -> str:
    """The (epsilon, delta) of each RDP method by Lemma 2.1 of Girgis et al. at its best order:
    method (cited), kind, status, epsilon (upper end, rounded up) and the order."""
    rows = titled(epsilon_rows(results), results, "shuffle-rdp")
    caption = ("The shuffle model's RDP converted to $(\\epsilon, \\delta)$ by Lemma~2.1 of Girgis et "
               f"al.~\\cite{{girgis2021renyi}}, {tex.setting(setting)}: $\\epsilon$ at the best order (upper "
               "ends rounded up).")
    return tex.table(rows, ["method", "kind", "status", "epsilon", "order"],
                     headers=["method", "kind", "status", "$\\epsilon$", "order $\\lambda$"], caption=caption,
                     label=label, sig=sig, textwidth=textwidth)


def rdp_curve_table(curves, orders: Sequence[float], setting: dict, *, label: str, sig: int = SIG,
                    textwidth: float = tex.TEXTWIDTH) -> str:
    """The RDP curves, one row per method (named and cited; its kind), one column per order (split
    into blocks of orders where they do not fit ``textwidth``): an upper bound rounded up, a lower
    bound down, an approximation to nearest; the methods that are not proven, and those that do not
    apply, in a note below."""
    by_order, columns = curve_rows(curves, orders)
    found = [c for c in curves if c.as_dict().get("applicable", True)]
    labels = [f"o{i}" for i in range(len(orders))]
    short = {"approximation": "approx."}
    rows = []
    for c in found:
        row = {"method": c.method, "kind": short.get(str(c.kind), str(c.kind))}
        row.update({key: r.get(c.method) for key, r in zip(labels, by_order)})
        rows.append(row)
    rows = titled(rows, found, "shuffle-rdp")
    names = {r["method"].name: r["method"].name for r in rows}
    notes = []
    unproven = [title for c, title in zip(found, names) if str(c.status) not in ("proven", "not a bound")]
    if unproven:
        notes.append("Not proven: " + ", ".join(f"{tex.text(t)} ({tex.escape(str(c.status))})"
                                                for c, t in zip(found, names) if t in unproven) + ".")
    if any(str(c.kind) == "approximation" for c in found):
        notes.append("approx.: an approximation, not a bound.")
    missing = [c for c in curves if not c.as_dict().get("applicable", True)]
    if missing:
        notes.append("Not applicable: " + "; ".join(f"{tex.escape(c.method)}: {tex.text(c.as_dict()['note'])}"
                                                     for c in missing) + ".")
    caption = (f"RDP $\\epsilon(\\lambda)$ of the shuffle model by method, {tex.setting(setting)} (an upper "
               "bound rounded up, a lower bound down, an approximation to nearest).")
    headers = ["method", "kind"] + [f"$\\lambda = {tex.fmt_float(float(o))}$" for o in orders]
    return tex.table(rows, ["method", "kind"] + labels, headers=headers, caption=caption, label=label,
                     sig=sig, fixed=2, note=" ".join(notes) or None, scaled=True, textwidth=textwidth)
