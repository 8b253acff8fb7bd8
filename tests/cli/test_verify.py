"""``dptheory verify``: the table, --json, --digits, the exit status of a planted violation, bad input."""

from __future__ import annotations

import json
import math
import re

from dptheory import profile
from dptheory.cli import SUBCOMMANDS, main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


ONLY = "gdp/delta,shuffle/exact,wang-lemma-4.5"


def test_table_and_exit_status(capsys):
    code, out, err = run(capsys, "verify", "--quick", "--only", ONLY)
    assert code == 0 and err == ""  # no progress bar in a pipe
    lines = out.splitlines()
    assert lines[0].startswith("dptheory verify: quick grid, mpmath oracles at 50 significant digits")
    header = lines[2].split()
    for column in ("bound", "kind", "status", "oracle", "cases", "margin", "accuracy", "violated"):
        assert column in header
    # no column claims to be the exact value: the oracle column names what is compared
    assert "exact" not in lines[2] and "exact" not in next(x for x in lines if x.startswith("erratum "))
    assert "gdp/delta" in out and "shuffle/exact" in out
    assert "wang-lemma-4.5" in out and "confirmed" in out
    # every oracle named in a row is explained once below the tables
    assert "  closed: " in out and "  enum: exact enumeration of the shuffled output" in out
    assert out.rstrip().endswith("PASS: no proven bound violated")


def test_json_structure(capsys):
    code, out, _ = run(capsys, "verify", "--quick", "--json", "--digits", "30", "--only", ONLY)
    data = json.loads(out)["results"]
    assert code == 0 and data["passed"] is True and data["quick"] is True and data["digits"] == 30
    assert {c["bound"] for c in data["checks"]} == {"gdp/delta", "shuffle/exact"}
    for c in data["checks"]:
        assert {"kind", "status", "cases", "worst_margin", "violations", "not_applicable", "source", "fails"} <= set(c)
        assert c["cases"] > 0 and c["violations"] == 0 and c["worst_margin"] >= 0
    (e,) = data["errata"]
    assert e["erratum"] == "wang-lemma-4.5" and e["verdict"] == "confirmed"
    assert e["printed_failures"] > 0 and e["corrected_failures"] == 0
    assert data["errors"] == []


def test_planted_violation_exits_1_and_names_the_bound(capsys, monkeypatch):
    original = profile.gdp_delta_result

    def low(mu, epsilon, *args, **kwargs):
        r = original(mu, epsilon, *args, **kwargs)
        return r.replace(lower=r.lower * 0.99, upper=r.upper * 0.99, log_lower=r.log_lower + math.log(0.99),
                         log_upper=r.log_upper + math.log(0.99))

    monkeypatch.setattr(profile, "gdp_delta_result", low)
    code, out, _ = run(capsys, "verify", "--quick", "--only", "gdp/delta")
    assert code == 1
    assert "FAIL: gdp/delta" in out and "violations (bound vs its oracle" in out and "vs closed " in " ".join(out.split())
    code, out, _ = run(capsys, "verify", "--quick", "--json", "--only", "gdp/delta")
    data = json.loads(out)["results"]
    assert code == 1 and data["passed"] is False and data["checks"][0]["fails"] is True


def test_bad_input_exits_2(capsys):
    code, _, err = run(capsys, "verify", "--digits", "5")
    assert code == 2 and "digits" in err
    code, _, err = run(capsys, "verify", "--only", "no-such-bound")
    assert code == 2 and "no-such-bound" in err and "gdp/delta" in err
    code, _, err = run(capsys, "verify", "--workers", "0")
    assert code == 2 and "workers" in err


def test_help_text_is_the_registered_one():
    from dptheory.cli import verify as cli_verify

    assert SUBCOMMANDS["verify"] == cli_verify.HELP


def _digits(number: str) -> int:
    """Significant digits of a printed decimal."""
    mantissa = number.split("e")[0].lstrip("-").replace(".", "").lstrip("0")
    return len(mantissa)


def _enclosure(out: str, name: str) -> tuple[str, str]:
    """The oracle's enclosure on the detail line of the erratum ``name``."""
    text = " ".join(out.split())  # the detail lines wrap
    match = re.search(re.escape(name) + r": .*?; enum: \[([0-9.e+-]+), ([0-9.e+-]+)\]", text)
    assert match, text[-2000:]
    return match.group(1), match.group(2)


def test_digits_shows_the_digits_the_oracle_certifies(capsys):
    """--digits 60 shows more of the exact enumeration's digits than the default 50, and the
    header says at which precision the oracles ran; both enclosures contain each other's digits."""
    _, default, _ = run(capsys, "verify", "--quick", "--only", "wang-lemma-4.5")
    _, more, _ = run(capsys, "verify", "--quick", "--digits", "60", "--only", "wang-lemma-4.5")
    assert "oracles at 50 significant digits" in default and "oracles at 60 significant digits" in more
    lo50, hi50 = _enclosure(default, "wang-lemma-4.5")
    lo60, hi60 = _enclosure(more, "wang-lemma-4.5")
    assert 48 <= _digits(hi50) <= 50 and 58 <= _digits(hi60) <= 60 and _digits(lo60) > _digits(hi50)
    from decimal import Decimal
    assert Decimal(lo50) <= Decimal(lo60) <= Decimal(hi60) <= Decimal(hi50)  # the finer enclosure is inside
    # a one-sided oracle (a lower end only) is shown at the least digits whatever the precision
    _, out, _ = run(capsys, "verify", "--quick", "--digits", "60", "--only", "girgis-theorem-3.3")
    assert re.search(r"one-pair: \[0\.00021729913, inf\]", out)
