"""Plain-text tables for a terminal (dptheory.presentation.text): they fit 80 columns."""

from dptheory.presentation.text import notes, table


def test_table_moves_a_long_last_column_below_each_row(capsys):
    rows = [{"name": "x" * 40, "kind": "approximation", "status": "not a bound", "source": "s " * 60}]
    table(rows, ["name", "kind", "status", "source"])
    out = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in out) <= 80 and "source" not in out[0] and out[3].startswith("    s s")


def test_notes_show_inline_math_as_plain_text(capsys):
    rows = [{"method": "a", "note": r"holds for $\lambda^4 e^{5\epsilon_0} < n/9$ only"}, {"method": "b", "note": ""}]
    notes(rows, "note", "notes:")
    out = capsys.readouterr().out
    assert "a: holds for lambda^4 e^(5 eps0) < n/9 only" in out and "$" not in out
