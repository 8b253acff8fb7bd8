"""The outcomes of a verification run, as a report: one row per bound, proof status and oracle, one per erratum; a table
for a person (the presentation layer's text tables) and one JSON form (:meth:`Report.as_dict`).

Every row names its oracle (a short tag, explained once below the table); the detail lines print
the oracle's enclosure with as many significant digits as it certifies at the precision the
oracles ran at, each end rounded outwards (:mod:`dptheory.presentation.digits`).
"""

from __future__ import annotations

import dataclasses
import math
import sys
from typing import Any


from ..presentation.digits import fmt_margin, show_pair
from ..presentation.text import table, wrapped
from ..results import Status

#: columns of the tables (the bounds' names are long): the classic wide terminal
WIDTH = 132
#: the most significant digits of a float64 bound's ends (17 identify any double)
FLOAT_DIGITS = 17

#: verdict of an erratum row: the printed form fails and the corrected one is shown to hold on
#: every case (against an oracle that encloses the exact value from both sides)
CONFIRMED = "confirmed"
#: verdict of an erratum row whose oracle has only one end of the exact value (a lower end for an
#: upper bound): the printed form is contradicted, the corrected one only not contradicted
PRINTED_REFUTED = "printed refuted"
#: verdict of an erratum row against a transcription check: the printed form differs from the
#: formula the paper derives and the corrected one matches it; nothing is shown about the bound
MISPRINT = "misprint"


def _note(text: str, out, indent: str = "  ", subsequent: str = "      ") -> None:
    wrapped(text, out, width=WIDTH, indent=indent, subsequent=subsequent)


# ----------------------------------------------------------------------------- outcomes of one case


@dataclasses.dataclass(frozen=True)
class CaseOutcome:
    """One case of one check: its margin (negative: violated), or why it was not checked.

    ``status`` is the library's at this case, ``general`` the bound's status for a general input,
    ``scope`` the input the status is for where the two differ (a randomizer's name), ``oracle_kind``
    the tag of the oracle; ``bound`` and ``oracle`` the two enclosures as printed."""

    name: str
    label: str
    status: str
    oracle_kind: str = ""
    general: str = ""
    scope: str = ""
    status_note: str = ""
    margin: float | None = None
    violated: bool = False
    points: int = 0
    bound: tuple | None = None
    oracle: tuple | None = None
    skipped: str | None = None
    error: str | None = None
    seconds: float = 0.0
    accuracy_margin: float | None = None
    accuracy_bound: tuple | None = None
    accuracy_value: tuple | None = None

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v not in (None, "")}


@dataclasses.dataclass(frozen=True)
class ErratumOutcome:
    """One case of one erratum: the printed and corrected forms' margins against the oracle."""

    name: str
    label: str
    printed_margin: float | None = None
    corrected_margin: float | None = None
    printed: tuple | None = None
    corrected: tuple | None = None
    oracle: tuple | None = None
    error: str | None = None
    seconds: float = 0.0
    corrected_confirmed: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}


# ----------------------------------------------------------------------------- rows


@dataclasses.dataclass(frozen=True)
class CheckRow:
    """A bound under one proof status against one oracle: cases tried, the worst margin and the
    violations. ``scope``: the inputs the status is for, where it differs from ``general``."""

    bound: str
    kind: str
    status: str
    scope: list
    general: str
    oracle: str
    oracle_text: str
    source: str
    cases: int
    not_applicable: int
    errors: int
    worst_margin: float | None
    worst_case: str
    violations: int
    violated_cases: list
    accuracy_cases: int = 0
    accuracy_margin: float | None = None
    accuracy_oracle: str = ""

    @property
    def status_text(self) -> str:
        """The status as the table shows it: "proven (binary-rr)" where it holds for that input only."""
        return self.status + (f" ({', '.join(self.scope)})" if self.scope else "")

    @property
    def fails(self) -> bool:
        """A violation (or a crash) of a bound labelled proven, or a crash of a bound whose status
        could not be learned (its Result is its only status source, and it crashed)."""
        return self.status in (str(Status.PROVEN), "-") and (self.violations > 0 or self.errors > 0)

    def as_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "worst_margin": _json_float(self.worst_margin),
                "accuracy_margin": _json_float(self.accuracy_margin), "fails": self.fails}


@dataclasses.dataclass(frozen=True)
class ErratumRow:
    """A printed formula next to its correction: how often each fails against the oracle."""

    erratum: str
    source: str
    claim: str
    status: str
    note: str
    oracle: str
    oracle_text: str
    oracle_sides: str
    cases: int
    errors: int
    printed_failures: int
    corrected_failures: int
    printed_worst_margin: float | None
    corrected_worst_margin: float | None
    example: dict
    corrected_confirmed: int = 0

    @property
    def transcription(self) -> bool:
        from .registry import TRANSCRIPTION_CHECK

        return self.oracle_sides == TRANSCRIPTION_CHECK

    @property
    def printed_text(self) -> str:
        return f"{'differs' if self.transcription else 'fails'} {self.printed_failures}/{self.cases}"

    @property
    def corrected_text(self) -> str:
        """The corrected form's column: "holds" only where it is shown to hold against both ends of
        the exact value; "not contradicted" where the oracle has one end of it only; "fails" where
        it is contradicted; against a transcription check, "matches" or "differs"."""
        if self.transcription:
            word = "differs" if self.corrected_failures else "matches"
            return f"{word} {self.corrected_failures or self.cases}/{self.cases}"
        if self.corrected_failures:
            return f"fails {self.corrected_failures}/{self.cases}"
        if self.corrected_confirmed == self.cases:
            return f"holds {self.cases}/{self.cases}"
        return f"not contradicted {self.cases}/{self.cases}"

    @property
    def verdict(self) -> str:
        if self.errors:
            return "error"
        if self.transcription:
            if self.corrected_failures:
                return "corrected form differs"
            return MISPRINT if self.printed_failures else "printed form matches"
        if self.corrected_failures:
            return "corrected form fails"
        if not self.printed_failures:
            return "printed form not refuted on this grid"
        return CONFIRMED if self.corrected_confirmed == self.cases else PRINTED_REFUTED

    @property
    def fails(self) -> bool:
        return self.status == str(Status.PROVEN) and (self.corrected_failures > 0 or self.errors > 0)

    def as_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "printed_worst_margin": _json_float(self.printed_worst_margin),
                "corrected_worst_margin": _json_float(self.corrected_worst_margin), "verdict": self.verdict,
                "printed": self.printed_text, "corrected": self.corrected_text, "fails": self.fails}


def _json_float(x):
    if x is None or math.isfinite(x):
        return x
    return "inf" if x > 0 else "-inf"


#: what each word of the errata table means (printed below it, the words that appear)
_ERRATA_WORDS = {
    "holds": "shown to hold against an oracle that encloses the exact value from both sides",
    "not contradicted": "the oracle has only one end of the exact value (a lower end, for an upper bound): the "
                        "corrected form is consistent with it, not confirmed",
    "fails": "contradicted by the oracle",
    "matches": "equal to the formula the paper derives, evaluated again (a transcription check: says nothing about "
               "whether the bound holds)",
    "differs": "not equal to the formula the paper derives",
    CONFIRMED: "the printed form fails and the corrected form holds on every case",
    PRINTED_REFUTED: "the printed form fails; the corrected form is not contradicted (a one-sided oracle cannot "
                     "confirm it)",
    MISPRINT: "the printed form differs from the formula the paper derives and the corrected form matches it: a "
              "typo shown, not a bound confirmed or refuted",
}


def _errata_words(errata: list) -> list[str]:
    shown = []
    for e in errata:
        for text in (e.printed_text, e.corrected_text, e.verdict):
            for word in _ERRATA_WORDS:
                if text.startswith(word) and word not in shown:
                    shown.append(word)
    return [w for w in _ERRATA_WORDS if w in shown]


# ----------------------------------------------------------------------------- the report


@dataclasses.dataclass(frozen=True)
class Report:
    """The outcome of ``dptheory verify``: :attr:`rows` (bounds), :attr:`errata`, and every case."""

    rows: list
    errata: list
    outcomes: list
    quick: bool
    digits: int
    seconds: float
    oracles: dict = dataclasses.field(default_factory=dict)

    @property
    def passed(self) -> bool:
        """No bound labelled proven is violated (or crashes), no proven correction fails."""
        return not any(r.fails for r in self.rows) and not any(e.fails for e in self.errata)

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    @classmethod
    def build(cls, checks: dict, errata: dict, outcomes: list, *, quick: bool, digits: int, seconds: float,
              oracles: dict | None = None) -> "Report":
        """The rows: one per bound, status and oracle (cases outside the bound's domain are
        counted on the bound's first row); one per erratum. ``oracles``: tag -> text of every
        oracle named (the legend)."""
        rows = []
        for name, check in checks.items():
            mine = [o for o in outcomes if isinstance(o, CaseOutcome) and o.name == name]
            tried_any = [o for o in mine if o.skipped is None]
            keys = list(dict.fromkeys((o.status, o.oracle_kind) for o in tried_any)) or \
                [(mine[0].status if mine else "-", mine[0].oracle_kind if mine else "-")]
            for i, (status, tag) in enumerate(keys):
                group = [o for o in tried_any if (o.status, o.oracle_kind) == (status, tag)]
                skipped = [o for o in mine if o.skipped is not None] if i == 0 else []
                tried = [o for o in group if o.margin is not None]
                worst = min(tried, key=lambda o: o.margin, default=None)
                bad = [o for o in tried if o.violated]
                accurate = [o.accuracy_margin for o in tried if o.accuracy_margin is not None]
                scope = list(dict.fromkeys(o.scope for o in group + skipped if o.scope))
                general = next((o.general for o in group + skipped if o.general), "")
                rows.append(CheckRow(name, str(check.kind), status, scope, general, tag,
                                     (oracles or {}).get(tag, ""), check.source, len(tried), len(skipped),
                                     sum(o.error is not None for o in group),
                                     None if worst is None else worst.margin, "" if worst is None else worst.label,
                                     len(bad), [o.as_dict() for o in bad[:5]], len(accurate),
                                     min(accurate, default=None), check.accuracy_name))
        erows = []
        for name, erratum in errata.items():
            mine = [o for o in outcomes if isinstance(o, ErratumOutcome) and o.name == name]
            ok = [o for o in mine if o.error is None]
            fails_p = [o for o in ok if o.printed_margin < 0]
            fails_c = [o for o in ok if o.corrected_margin < 0]
            example = (fails_p or ok or [None])[0]
            if erratum.within is not None and erratum.within < 1.001:
                claim = "equal"
            else:
                claim = erratum.claim + (f", within {erratum.within:g}x" if erratum.within else "")
            statuses = {str(erratum.status_of(c)) for c in erratum.grid(quick)}
            status = str(Status.PROVEN) if str(Status.PROVEN) in statuses else (sorted(statuses) or ["-"])[0]
            erows.append(ErratumRow(name, erratum.source, claim, status, erratum.note, erratum.oracle_kind.tag,
                                    erratum.oracle_kind.text, erratum.oracle_kind.sides, len(ok), len(mine) - len(ok),
                                    len(fails_p), len(fails_c),
                                    min((o.printed_margin for o in ok), default=None),
                                    min((o.corrected_margin for o in ok), default=None),
                                    example.as_dict() if example else {},
                                    sum(o.corrected_confirmed for o in ok)))
        return cls(rows, erows, outcomes, quick, digits, seconds, dict(oracles or {}))

    def as_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "quick": self.quick, "digits": self.digits, "seconds": round(self.seconds, 3),
                "oracles": dict(self.oracles),
                "checks": [r.as_dict() for r in self.rows], "errata": [e.as_dict() for e in self.errata],
                "errors": [o.as_dict() for o in self.outcomes if o.error is not None]}

    # -------------------------------------------------------------------------- text
    def print(self, out=None) -> None:
        """The tables for a person: bounds, then errata, then the violations, errors and verdict."""
        out = out or sys.stdout
        mode = "quick grid" if self.quick else "full grid"
        print(f"dptheory verify: {mode}, mpmath oracles at {self.digits} significant digits (10 guard digits "
              f"added), {self.seconds:.1f} s", file=out)
        if self.rows:
            self._bounds_table(out)
        if self.errata:
            self._errata_table(out)
        bad = [r for r in self.rows if r.violations or r.errors]
        if bad:
            print("\nviolations (bound vs its oracle, each enclosure rounded outwards):", file=out)
            for r in bad:
                for c in r.violated_cases:
                    if c["margin"] < 0:
                        _note(f"{r.bound} [{r.status_text}] at {c['label']}: bound {show_pair(c['bound'])} "
                                 f"vs {r.oracle} {show_pair(c['oracle'])}", out)
                    if c.get("accuracy_margin", 0.0) < 0:
                        _note(f"{r.bound} [{r.status_text}] at {c['label']}: accuracy: bound "
                                 f"{show_pair(c['accuracy_bound'])} vs independent evaluation "
                                 f"{show_pair(c['accuracy_value'])}", out)
        errors = [o for o in self.outcomes if o.error is not None]
        if errors:
            print("\nerrors:", file=out)
            for o in errors[:10]:
                print(f"  {o.name} at {o.label}: {o.error.strip().splitlines()[-1]}", file=out)
        verdict = "PASS" if self.passed else "FAIL"
        failing = [r.bound for r in self.rows if r.fails] + [e.erratum for e in self.errata if e.fails]
        print(f"\n{verdict}" + (f": {', '.join(dict.fromkeys(failing))}" if failing else ": no proven bound violated"),
              file=out)

    def _legend(self, tags: list[str], out) -> None:
        for tag in dict.fromkeys(tags):
            if tag in self.oracles:
                _note(f"{tag}: {self.oracles[tag]}", out, indent="  ", subsequent="    ")

    def _bounds_table(self, out) -> None:
        print(file=out)
        table([{"bound": r.bound, "kind": r.kind, "status": r.status_text, "oracle": r.oracle, "cases": r.cases,
                "n/a": r.not_applicable or None, "margin": fmt_margin(r.worst_margin),
                "accuracy": fmt_margin(r.accuracy_margin) if r.accuracy_cases else "-",
                "violated": r.violations + r.errors if r.errors else r.violations} for r in self.rows],
              ["bound", "kind", "status", "oracle", "cases", "n/a", "margin", "accuracy", "violated"], out=out,
              width=WIDTH)
        print("\nstatus: the library's, as dptheory formula, shuffle and rdp show it; \"proven (x)\": for the inputs x of "
              "these cases (a\nrandomizer; \"at these eps0, n\"), where it differs from the bound's status for a general "
              "input (dptheory formula);\nmargin: soundness, (bound - oracle) / oracle at the worst case, from the "
              "certified ends (negative: violated); against\na one-sided oracle (a lower end of the exact value) a margin "
              "against that end only;\naccuracy: the bound's own interval against an independent evaluation of the same "
              "quantity (for a closed form, the\nformula evaluated again: a transcription check; negative: they disagree; "
              "'-': none); n/a: cases outside the bound's\ndomain. Only a bound labelled proven fails the run. The "
              "oracles:", file=out)
        self._legend([r.oracle for r in self.rows], out)

    def _errata_table(self, out) -> None:
        print("\nerrata (the printed formula vs the toolkit's correction, against the oracle named):\n", file=out)
        table([{"erratum": e.erratum, "oracle": e.oracle, "cases": e.cases, "printed": e.printed_text,
                "corrected": e.corrected_text, "verdict": e.verdict} for e in self.errata],
              ["erratum", "oracle", "cases", "printed", "corrected", "verdict"], out=out, width=WIDTH)
        print(file=out)
        for word in _errata_words(self.errata):
            _note(f"{word}: {_ERRATA_WORDS[word]}", out, indent="", subsequent="    ")
        print("The oracles:", file=out)
        self._legend([e.oracle for e in self.errata], out)
        print(file=out)
        for e in self.errata:
            ex = e.example
            if ex:
                _note(f"{e.erratum}: {ex.get('label', '')}: printed {show_pair(ex['printed'])}, corrected "
                         f"{show_pair(ex['corrected'])}; {e.oracle}: {show_pair(ex['oracle'])} (claim: {e.claim}; "
                         f"{e.source})", out)
