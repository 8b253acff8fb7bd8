import math

import numpy as np
import pytest

from dptheory import validate
from tests.conftest import raises_naming


def test_integer_accepts_integral_floats_and_rejects_others():
    assert validate.integer("n", 1e6, low=1) == 1_000_000
    with raises_naming("n", "1.5", "integer"):
        validate.integer("n", 1.5, low=1)
    with raises_naming("n", "[1, inf]"):
        validate.integer("n", 0, low=1)
    with raises_naming("n"):
        validate.integer("n", True)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -0.1, 1.0, 0.0])
def test_delta_must_be_in_open_unit_interval(value):
    with raises_naming("delta", "(0, 1)"):
        validate.delta("delta", value)


def test_real_names_range_and_rejects_strings():
    with raises_naming("eps0", "[0, inf)"):
        validate.nonnegative("eps0", -1)
    with raises_naming("mu", "real number"):
        validate.positive("mu", "abc")
    assert validate.real("x", np.float32(2.5)) == 2.5


def test_pmf_checks():
    assert validate.pmf("p", [0.5, 0.5]).sum() == 1.0
    with raises_naming("p", "sums to"):
        validate.pmf("p", [0.5, 0.6])
    with raises_naming("p", "outside the valid range"):
        validate.pmf("p", [1.5, -0.5])
    with raises_naming("p and q", "same support"):
        validate.pmf_pair([1.0], [0.5, 0.5])
    with raises_naming("p", "1-D"):
        validate.pmf("p", [[0.5, 0.5]])


def test_mp_pmf_and_order_and_digits():
    with raises_naming("q", "sums to"):
        validate.mp_pmf("q", ["0.5", "0.4"])
    with raises_naming("order", "(1, inf)"):
        validate.order("order", 1.0)
    assert validate.order("order", math.inf, allow_inf=True) == math.inf
    with raises_naming("lam", "integer"):
        validate.order("lam", 2.5, integer_only=True)
    with raises_naming("digits"):
        validate.digits(2)
    assert validate.digits(None) is None


# ------------------------------------------------------------------ one validator for eps0

def _eps0_calls():
    """Public functions of the shuffle model that take eps0, each called with it (small n)."""
    from dptheory.shuffle import clones, parallel, rounds
    from dptheory.shuffle import rdp as shuffle_rdp
    from dptheory.shuffle.fdp import pair as fdp_pair
    from dptheory.shuffle.fdp.delta import shuffle_delta

    return {
        "clones.clone_pair": lambda e: clones.clone_pair(e, 10),
        "clones.stronger_clone_pair": lambda e: clones.stronger_clone_pair(e, 10),
        "parallel.range_query": lambda e: parallel.range_query(e, 4),
        "rounds.rounds_epsilon": lambda e: rounds.rounds_epsilon(e, 100, 2, 1e-6),
        "fdp.pair.weights": lambda e: fdp_pair.weights(e),
        "fdp.shuffle_delta": lambda e: shuffle_delta(e, 100, 0.1),
        "rdp.clone_pair_rdp": lambda e: shuffle_rdp.clone_pair_rdp(e, 10, [2.0]),
        "rdp.clone_pair_tradeoff": lambda e: shuffle_rdp.clone_pair_tradeoff(e, 10),
        "rdp.upper_1": lambda e: shuffle_rdp.upper_1(e, 10, [2.0]),
        "rdp.lower_bound": lambda e: shuffle_rdp.lower_bound(e, 10, [2.0]),
        "rdp.lower_bound_moments": lambda e: shuffle_rdp.lower_bound_moments(e, 10, 2),
        "rdp.rdp_curve": lambda e: shuffle_rdp.rdp_curve("chen-exact", e, 10, [2.0]),
        "rdp.shuffled_sgd_epsilon": lambda e: shuffle_rdp.shuffled_sgd_epsilon(e, 10, 1, 1e-5),
        "rdp.rdp_route_epsilon": lambda e: shuffle_rdp.rdp_route_epsilon(e, 100, 2, 1e-6),
    }


@pytest.mark.parametrize("name", sorted(_eps0_calls()))
@pytest.mark.parametrize("eps0", [0.0, -1.0, validate.EPS0_MAX * 1.5, float("nan")])
def test_every_shuffle_function_checks_eps0_by_the_one_rule(name, eps0):
    """eps0 of the shuffle model is in [EPS0_MIN, EPS0_MAX] in every function (validate.eps0), with the
    message naming eps0 and that range (some accepted eps0 = 0, or 700, or had no upper end)."""
    with raises_naming("eps0", f"{validate.EPS0_MAX:g}"):
        _eps0_calls()[name](eps0)


def test_no_other_check_of_eps0_in_the_library():
    """eps0 is checked by validate.eps0 everywhere but randomized response as a mechanism of its
    own (eps0 = 0 is its perfectly private member), which says so where it checks."""
    import pathlib
    import re

    root = pathlib.Path(validate.__file__).parent
    pattern = re.compile(r"validate\.(real|positive|nonnegative)\(\s*[\"']eps0[\"']|parse_values\(\s*[\"']eps0[\"'][^)]*low=")
    found = [f"{path.relative_to(root)}:{k}" for path in root.rglob("*.py")
             for k, line in enumerate(path.read_text().splitlines(), 1)
             if pattern.search(line) and "perfectly private" not in line]
    assert found == []


def test_output_file_is_checked_before_any_work(tmp_path):
    """One check of an output file (plots and sweeps): its ending, not a directory, an existing
    writable directory; each failure names the output and the reason."""
    assert validate.output_file(tmp_path / "a.png", (".png", ".pdf")) == tmp_path / "a.png"
    assert validate.output_file(tmp_path / "rows.csv") == tmp_path / "rows.csv"
    for path, suffixes, words in ((tmp_path / "a.svg", (".png", ".pdf"), "must end in .png or .pdf"),
                                  (tmp_path, None, "is a directory"),
                                  (tmp_path / "missing" / "a.csv", None, "does not exist")):
        with pytest.raises(validate.DomainError, match=words):
            validate.output_file(path, suffixes)
