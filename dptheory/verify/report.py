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
WIDTH = 100

#: status of an erratum row: the printed form fails and the corrected one holds on every case
CONFIRMED = "confirmed"


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

    @property
    def fails(self) -> bool:
        """A violation (or a crash) of a bound labelled proven."""
        return self.status == str(Status.PROVEN) and (self.violations > 0 or self.errors > 0)

    def as_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "worst_margin": _json_float(self.worst_margin), "fails": self.fails}


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

    @property
    def verdict(self) -> str:
        if self.errors:
            return "error"
        if self.printed_failures and not self.corrected_failures:
            return CONFIRMED
        if self.corrected_failures:
            return "corrected form fails"
        return "printed form not refuted on this grid"

    @property
    def fails(self) -> bool:
        return self.status == str(Status.PROVEN) and (self.corrected_failures > 0 or self.errors > 0)

    def as_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "printed_worst_margin": _json_float(self.printed_worst_margin),
                "corrected_worst_margin": _json_float(self.corrected_worst_margin), "verdict": self.verdict,
                "fails": self.fails}


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
            statuses = list(dict.fromkeys(o.status for o in mine)) or ["-" if callable(check.status) else str(check.status)]
            for status in statuses:
                group = [o for o in mine if o.status == status]
                tried = [o for o in group if o.margin is not None]
                worst = min(tried, key=lambda o: o.margin, default=None)
                bad = [o for o in tried if o.violated]
                rows.append(CheckRow(name, str(check.kind), status, check.source, check.oracle_name,
                                     len(tried), sum(o.skipped is not None for o in group),
                                     sum(o.error is not None for o in group),
                                     None if worst is None else worst.margin, "" if worst is None else worst.label,
                                     len(bad), [o.as_dict() for o in bad[:5]]))
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
                                    example.as_dict() if example else {}))
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
                    print(f"  {r.bound} [{r.status}] at {c['label']}: bound [{c['bound'][0]}, {c['bound'][1]}] "
                          f"vs exact [{c['oracle'][0]}, {c['oracle'][1]}]", file=out)
        errors = [o for o in self.outcomes if o.error is not None]
        if errors:
            print("\nerrors:", file=out)
            for o in errors[:10]:
                print(f"  {o.name} at {o.label}: {o.error.strip().splitlines()[-1]}", file=out)
        verdict = "PASS" if self.passed else "FAIL"
        failing = [r.bound for r in self.rows if r.fails] + [e.erratum for e in self.errata if e.fails]
        print(f"\n{verdict}" + (f": {', '.join(failing)}" if failing else ": no proven bound violated"), file=out)

    def _bounds_table(self, out) -> None:
        from ..cli.output import table

        print(file=out)
        table([{"bound": r.bound, "kind": r.kind, "status": r.status, "cases": r.cases,
                "n/a": r.not_applicable or None, "worst margin": fmt_margin(r.worst_margin),
                "violations": r.violations + r.errors if r.errors else r.violations} for r in self.rows],
              ["bound", "kind", "status", "cases", "n/a", "worst margin", "violations"], out=out, width=WIDTH)
        print("\nmargin: (bound - exact) / exact at the worst case, from the certified ends (negative: violated);"
              "\n'n/a': cases outside the bound's domain; only a bound labelled proven fails the run.", file=out)

    def _errata_table(self, out) -> None:
        from ..cli.output import table

        print("\nerrata (printed formula vs the toolkit's correction, against the exact value):\n", file=out)
        table([{"erratum": e.erratum, "cases": e.cases, "printed": f"fails {e.printed_failures}/{e.cases}",
                "corrected": f"holds {e.cases - e.corrected_failures}/{e.cases}", "verdict": e.verdict}
               for e in self.errata], ["erratum", "cases", "printed", "corrected", "verdict"], out=out, width=WIDTH)
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
