"""The verification report: one row per bound (and proof status), one per erratum; a table for a
person and one JSON form (:meth:`Report.as_dict`)."""

from __future__ import annotations

import dataclasses
import math
import sys
import textwrap
from typing import Any

from ..results import Status

#: columns of the tables (the bounds' names are long)
WIDTH = 110

#: verdict of an erratum row: the printed form fails and the corrected one is shown to hold on
#: every case (against a two-sided enclosure of the exact value)
CONFIRMED = "confirmed"
#: verdict of an erratum row whose oracle has only one end of the exact value (a lower end for an
#: upper bound): the printed form is contradicted, the corrected one only not contradicted
PRINTED_REFUTED = "printed refuted"


@dataclasses.dataclass(frozen=True)
class CaseOutcome:
    """One case of one check: its margin (negative: violated), or why it was not checked."""

    name: str
    label: str
    status: str
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
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}


@dataclasses.dataclass(frozen=True)
class ErratumOutcome:
    """One case of one erratum: the printed and corrected forms' margins against the exact value."""

    name: str
    label: str
    printed_margin: float | None = None
    corrected_margin: float | None = None
    printed: str | None = None
    corrected: str | None = None
    exact: tuple | None = None
    error: str | None = None
    seconds: float = 0.0
    corrected_confirmed: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}


@dataclasses.dataclass(frozen=True)
class CheckRow:
    """A bound under one proof status: cases tried, the worst margin and the violations."""

    bound: str
    kind: str
    status: str
    source: str
    oracle: str
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
    def fails(self) -> bool:
        """A violation (or a crash) of a bound labelled proven."""
        return self.status == str(Status.PROVEN) and (self.violations > 0 or self.errors > 0)

    def as_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "worst_margin": _json_float(self.worst_margin),
                "accuracy_margin": _json_float(self.accuracy_margin), "fails": self.fails}


@dataclasses.dataclass(frozen=True)
class ErratumRow:
    """A printed formula next to its correction: how often each fails against the exact value."""

    erratum: str
    source: str
    claim: str
    status: str
    note: str
    cases: int
    errors: int
    printed_failures: int
    corrected_failures: int
    printed_worst_margin: float | None
    corrected_worst_margin: float | None
    example: dict
    corrected_confirmed: int = 0

    @property
    def corrected_text(self) -> str:
        """The corrected form's column: "holds" only where it is shown to hold; "not contradicted"
        where the oracle has one end of the exact value only; "fails" where it is contradicted."""
        if self.corrected_failures:
            return f"fails {self.corrected_failures}/{self.cases}"
        if self.corrected_confirmed == self.cases:
            return f"holds {self.cases}/{self.cases}"
        return f"not contradicted {self.cases}/{self.cases}"

    @property
    def verdict(self) -> str:
        if self.errors:
            return "error"
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
                "corrected": self.corrected_text, "fails": self.fails}


def _json_float(x):
    if x is None or math.isfinite(x):
        return x
    return "inf" if x > 0 else "-inf"


@dataclasses.dataclass(frozen=True)
class Report:
    """The outcome of ``dptheory verify``: :attr:`rows` (bounds), :attr:`errata`, and every case."""

    rows: list
    errata: list
    outcomes: list
    quick: bool
    digits: int
    seconds: float

    @property
    def passed(self) -> bool:
        """No bound labelled proven is violated (or crashes), no proven correction fails."""
        return not any(r.fails for r in self.rows) and not any(e.fails for e in self.errata)

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    @classmethod
    def build(cls, checks: dict, errata: dict, outcomes: list, *, quick: bool, digits: int, seconds: float) -> "Report":
        rows = []
        for name, check in checks.items():
            mine = [o for o in outcomes if isinstance(o, CaseOutcome) and o.name == name]
            # one row per status the bound showed; the cases outside its domain (no status shown)
            # are counted on the first row
            statuses = (list(dict.fromkeys(o.status for o in mine if o.skipped is None))
                        or list(dict.fromkeys(o.status for o in mine))
                        or ["-" if callable(check.status) else str(check.status)])
            for status in statuses:
                group = [o for o in mine if o.status == status and o.skipped is None]
                skipped = [o for o in mine if o.skipped is not None and (status == statuses[0])]
                tried = [o for o in group if o.margin is not None]
                worst = min(tried, key=lambda o: o.margin, default=None)
                bad = [o for o in tried if o.violated]
                accurate = [o.accuracy_margin for o in tried if o.accuracy_margin is not None]
                rows.append(CheckRow(name, str(check.kind), status, check.source, check.oracle_name,
                                     len(tried), len(skipped),
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
            erows.append(ErratumRow(name, erratum.source, claim,
                                    str(erratum.status), erratum.note, len(ok), len(mine) - len(ok),
                                    len(fails_p), len(fails_c),
                                    min((o.printed_margin for o in ok), default=None),
                                    min((o.corrected_margin for o in ok), default=None),
                                    example.as_dict() if example else {},
                                    sum(o.corrected_confirmed for o in ok)))
        return cls(rows, erows, outcomes, quick, digits, seconds)

    def as_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "quick": self.quick, "digits": self.digits, "seconds": round(self.seconds, 3),
                "checks": [r.as_dict() for r in self.rows], "errata": [e.as_dict() for e in self.errata],
                "errors": [o.as_dict() for o in self.outcomes if o.error is not None]}

    # -------------------------------------------------------------------------- text
    def print(self, out=None) -> None:
        """The tables for a person: bounds, then errata, then the violations, errors and verdict."""
        out = out or sys.stdout
        mode = "quick grid" if self.quick else "full grid"
        print(f"dptheory verify: {mode}, oracles at {self.digits} digits, {self.seconds:.1f} s", file=out)
        if self.rows:
            self._bounds_table(out)
        if self.errata:
            self._errata_table(out)
        bad = [r for r in self.rows if r.violations or r.errors]
        if bad:
            print("\nviolations:", file=out)
            for r in bad:
                for c in r.violated_cases:
                    if c["margin"] < 0:
                        print(f"  {r.bound} [{r.status}] at {c['label']}: bound [{c['bound'][0]}, {c['bound'][1]}] "
                              f"vs exact [{c['oracle'][0]}, {c['oracle'][1]}]", file=out)
                    if c.get("accuracy_margin", 0.0) < 0:
                        b, v = c["accuracy_bound"], c["accuracy_value"]
                        print(f"  {r.bound} [{r.status}] at {c['label']}: accuracy: bound [{b[0]}, {b[1]}] "
                              f"vs independent evaluation [{v[0]}, {v[1]}]", file=out)
        errors = [o for o in self.outcomes if o.error is not None]
        if errors:
            print("\nerrors:", file=out)
            for o in errors[:10]:
                print(f"  {o.name} at {o.label}: {o.error.strip().splitlines()[-1]}", file=out)
        verdict = "PASS" if self.passed else "FAIL"
        failing = [r.bound for r in self.rows if r.fails] + [e.erratum for e in self.errata if e.fails]
        print(f"\n{verdict}" + (f": {', '.join(failing)}" if failing else ": no proven bound violated"), file=out)

    def _bounds_table(self, out) -> None:
        from ..presentation.text import table

        print(file=out)
        table([{"bound": r.bound, "kind": r.kind, "status": r.status, "cases": r.cases,
                "n/a": r.not_applicable or None, "worst margin": fmt_margin(r.worst_margin),
                "accuracy": fmt_margin(r.accuracy_margin) if r.accuracy_cases else "-",
                "violations": r.violations + r.errors if r.errors else r.violations} for r in self.rows],
              ["bound", "kind", "status", "cases", "n/a", "worst margin", "accuracy", "violations"], out=out,
              width=WIDTH)
        print("\nworst margin: soundness, (bound - exact) / exact at the worst case, from the certified ends "
              "(negative: violated);\naccuracy: the bound's own interval against an independent evaluation of the "
              "same quantity\n(negative: they disagree; '-': no second oracle); 'n/a': cases outside the bound's "
              "domain;\nonly a bound labelled proven fails the run.", file=out)

    def _errata_table(self, out) -> None:
        from ..presentation.text import table

        print("\nerrata (printed formula vs the toolkit's correction, against the exact value):\n", file=out)
        table([{"erratum": e.erratum, "cases": e.cases, "printed": f"fails {e.printed_failures}/{e.cases}",
                "corrected": e.corrected_text, "verdict": e.verdict}
               for e in self.errata], ["erratum", "cases", "printed", "corrected", "verdict"], out=out, width=WIDTH)
        print("\nholds: shown against a two-sided enclosure of the exact value; not contradicted: the oracle has "
              "only\none end of the exact value (a lower end, for an upper bound), so the corrected form is "
              "consistent\nwith it but not confirmed; fails: contradicted by the exact value.\n", file=out)
        for e in self.errata:
            ex = e.example
            if ex:
                text = (f"{e.erratum}: {ex.get('label', '')}: printed {ex.get('printed')}, corrected "
                        f"{ex.get('corrected')}, exact in [{', '.join(ex.get('exact', ('?', '?')))}] "
                        f"({e.claim}; {e.source})")
                print(textwrap.fill(text, width=WIDTH, initial_indent="  ", subsequent_indent="      ",
                                    break_on_hyphens=False), file=out)


def fmt_margin(x: float | None) -> str:
    if x is None:
        return "-"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.2e}"
