"""``dptheory verify``: the table, --json, the exit status of a planted violation, bad input."""

from __future__ import annotations

import json
import math

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
    header = out.splitlines()[2]
    for column in ("bound", "kind", "status", "cases", "worst margin", "violations"):
        assert column in header
    assert "gdp/delta" in out and "shuffle/exact" in out
    assert "wang-lemma-4.5" in out and "confirmed" in out
    assert out.rstrip().endswith("PASS: no proven bound violated")


def test_json_structure(capsys):
    code, out, _ = run(capsys, "verify", "--quick", "--json", "--digits", "30", "--only", ONLY)
    data = json.loads(out)
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
    assert "FAIL: gdp/delta" in out and "violations:" in out
    code, out, _ = run(capsys, "verify", "--quick", "--json", "--only", "gdp/delta")
    data = json.loads(out)
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
