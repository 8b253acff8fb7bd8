"""No command may show a traceback for any valid input (issue 9).

Every subcommand runs through :func:`dptheory.cli.main` over small n (2, 3, 5, 10), huge n (1e12),
eps0 from 0.01 to 50 and delta from 1e-300 to 0.5. A valid input exits 0 with output; an
exception escaping ``main`` fails the test with its traceback. The default run takes a
representative sample (every value of every axis appears, and the inputs issue 9 reported);
the full product is marked slow.
"""

from __future__ import annotations

import contextlib
import itertools

import pytest

from dptheory.cli import main

SMALL_N = ["2", "3", "5", "10"]
HUGE_N = ["1e12"]
EPS0 = ["0.01", "0.5", "1", "4", "15", "50"]
DELTA = ["1e-300", "1e-10", "1e-3", "0.5"]
EPSILON = ["0", "0.5", "3", "40"]
MU = ["0.01", "1", "50"]


#: address space a command may add to the test process (a run that needs more fails with MemoryError)
MEMORY_CAP = 2 << 30


@contextlib.contextmanager
def memory_cap(extra: int = MEMORY_CAP):
    """Cap the address space at its current size plus ``extra`` bytes (Linux): a command that
    would take the machine's memory fails with MemoryError instead."""
    try:
        import resource

        with open("/proc/self/status") as fh:
            size = next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmSize:"))
    except (ImportError, OSError, StopIteration):
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = size + extra if hard == resource.RLIM_INFINITY else min(hard, size + extra)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def run_valid(capsys, argv):
    """Run ``dptheory argv``: it must exit 0 and print something (an exception fails the test)."""
    with memory_cap():
        code = main(list(argv))
    out = capsys.readouterr()
    assert code == 0, f"dptheory {' '.join(argv)} exited {code}: {out.err}"
    assert out.out.strip(), f"dptheory {' '.join(argv)} printed nothing"


# ------------------------------------------------------------------------------------ samples
#: the default run: each axis value at least once, the extremes together, and issue 9's inputs
SHUFFLE_SAMPLE = [
    ["shuffle", "--eps0", "0.5", "--n", "10", "--delta", "0.001"],
    ["shuffle", "--eps0", "4", "--n", "1000", "--delta", "1e-3"],
    ["shuffle", "--eps0", "3", "--n", "500", "--delta", "1e-4"],
    ["shuffle", "--eps0", "0.01", "--n", "5", "--delta", "1e-10"],
    ["shuffle", "--eps0", "50", "--n", "1000", "--delta", "1e-6"],
    ["shuffle", "--eps0", "30", "--n", "100"],
    ["shuffle", "--eps0", "20", "--n", "1e6", "--delta", "1e-8"],
    ["shuffle", "--eps0", "15", "--n", "1e6", "--delta", "1e-10"],
    ["shuffle", "--eps0", "1", "--n", "2", "--delta", "1e-300"],
    ["shuffle", "--eps0", "50", "--n", "3", "--delta", "0.5"],
    ["shuffle", "--eps0", "0.01", "--n", "1e12", "--delta", "1e-300"],
    ["shuffle", "--eps0", "50", "--n", "1e12", "--delta", "1e-10"],
    ["shuffle", "--eps0", "1", "--n", "10", "--epsilon", "0.5"],
    ["shuffle", "--eps0", "4", "--n", "1e12", "--epsilon", "40"],
    ["shuffle", "--randomizer", "grr", "--d", "3", "--eps0", "2", "--n", "3", "--epsilon", "1.99999999999"],
    ["shuffle", "--randomizer", "binary-rr", "--eps0", "50", "--n", "5", "--delta", "1e-10"],
]
RDP_SAMPLE = [
    ["rdp", "--eps0", "0.01", "--n", "2"],
    ["rdp", "--eps0", "50", "--n", "3"],
    ["rdp", "--eps0", "1", "--n", "1e12", "--orders", "2..8"],
    ["rdp", "--eps0", "4", "--n", "10", "--delta", "1e-300", "--orders", "2,4,8"],
    ["rdp", "--eps0", "0.5", "--n", "5", "--delta", "0.5", "--orders", "2..6"],
    ["rdp", "--eps0", "15", "--n", "1e12", "--delta", "1e-10", "--orders", "2,16", "--methods", "girgis-upper-2"],
]
GDP_SAMPLE = [["gdp", "--mu", mu, "--delta", d] for mu, d in [("0.01", "1e-300"), ("1", "0.5"), ("50", "1e-10")]] + [
    ["gdp", "--mu", mu, "--epsilon", e] for mu, e in [("1", "40"), ("0.01", "0"), ("50", "3")]] + [
    ["gdp", "--mu", "1", "--delta", "1e-6", "--digits", "50"], ["gdp", "--mu", "1", "--epsilon", "40", "--digits", "30"]]
MECHANISM_SAMPLE = [
    ["mechanism", "rr", "--eps0", "0.01", "--k", "2", "--delta", "1e-300"],
    ["mechanism", "rr", "--eps0", "50", "--k", "10", "--delta", "0.5"],
    ["mechanism", "gaussian", "--sigma", "0.01", "--delta", "1e-10"],
    ["mechanism", "gaussian", "--sigma", "100", "--delta", "1e-300"],
    ["mechanism", "laplace", "--scale", "0.02", "--delta", "1e-3"],
]
FORMULA_SAMPLE = [["formula"], ["formula", "--json"], ["formula", "gdp-delta"], ["formula", "girgis-upper-1", "--latex"],
                  ["formula", "variation-ratio-analytic", "--json"]]
BARE_SAMPLE = [[], ["--eps0", "0.5", "--n", "10", "--delta", "1e-3"]]

SAMPLE = SHUFFLE_SAMPLE + RDP_SAMPLE + GDP_SAMPLE + MECHANISM_SAMPLE + FORMULA_SAMPLE + BARE_SAMPLE


@pytest.mark.parametrize("argv", SAMPLE, ids=lambda a: " ".join(a) or "(bare)")
def test_sample_exits_0_without_traceback(capsys, argv):
    run_valid(capsys, argv)


def test_sample_covers_every_axis_value():
    """The default sample uses every value of every axis (so that the slow product only adds
    combinations)."""
    words = [w for argv in SAMPLE for w in argv]
    for value in SMALL_N + HUGE_N + ["0.01", "0.5", "1", "4", "15", "50"] + DELTA + MU:
        assert value in words, value
    assert {a[0] for a in SAMPLE if a} >= {"shuffle", "rdp", "gdp", "mechanism", "formula"} and [] in SAMPLE


def test_invalid_input_exits_2_with_a_message(capsys):
    for argv in (["shuffle", "--eps0", "-1"], ["shuffle", "--n", "1.5"], ["gdp", "--delta", "0"],
                 ["rdp", "--n", "0"], ["mechanism", "rr", "--k", "1"], ["formula", "no-such"]):
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2 and "error" in err and "Traceback" not in err, argv


# ------------------------------------------------------------------------------- full product
def _product():
    for n, e0, d in itertools.product(SMALL_N + HUGE_N, EPS0, DELTA):
        yield ["shuffle", "--eps0", e0, "--n", n, "--delta", d]
        yield ["rdp", "--eps0", e0, "--n", n, "--delta", d, "--orders", "2,3,8,32"]
    for n, e0, e in itertools.product(SMALL_N + HUGE_N, EPS0, EPSILON):
        yield ["shuffle", "--eps0", e0, "--n", n, "--epsilon", e]
    for n, e0 in itertools.product(SMALL_N + HUGE_N, EPS0):
        yield ["rdp", "--eps0", e0, "--n", n]
        yield [] if (n, e0) == ("2", "0.01") else ["--eps0", e0, "--n", n]
    for mu, d in itertools.product(MU, DELTA):
        yield ["gdp", "--mu", mu, "--delta", d]
    for mu, e in itertools.product(MU, EPSILON):
        yield ["gdp", "--mu", mu, "--epsilon", e]
    for e0, d in itertools.product(EPS0, DELTA):
        yield ["mechanism", "rr", "--eps0", e0, "--delta", d]
    for sigma, d in itertools.product(["0.01", "1", "100"], DELTA):
        yield ["mechanism", "gaussian", "--sigma", sigma, "--delta", d]
        yield ["mechanism", "laplace", "--scale", sigma, "--delta", d]


@pytest.mark.slow
@pytest.mark.parametrize("argv", list(_product()), ids=lambda a: " ".join(a) or "(bare)")
def test_product_exits_0_without_traceback(capsys, argv):
    run_valid(capsys, argv)


@pytest.mark.slow
def test_every_formula_prints(capsys):
    from dptheory import catalogue

    for name in catalogue.names():
        run_valid(capsys, ["formula", name])
        run_valid(capsys, ["formula", name, "--latex"])
