"""The catalogue of published closed forms for the Renyi DP of the shuffle model (Girgis et al.,
CCS 2021; Erlingsson et al. 2019; Chen, Cao, Ge, ICASSP 2024), with their errata and, in this one
place, their status.

Corrected forms (docs/errata.md, Girgis et al. (2021) and Chen, Cao, Ge (2024)):

* Theorem 3.1 (upper bound 1): every term inside the log, binom(lam, 2) (printed "(lam/2)"),
  n_bar = floor((n - 1)/(2 e^eps0)) + 1 (the floor is what the proof gives; rounding it up is
  unsound, so it is taken with mpmath);
* Theorem 3.3 (upper bound 2): (e^eps0 - 1)^2 / n_bar and 8 e^eps0 (printed (eps0 - 1)^2 / n and
  8 eps0, which is below the exact value: see the tests);
* Chen et al. Theorem 2 / Corollary 2 are central-limit approximations, never bounds: their status
  is :attr:`Status.NOT_A_BOUND`.
"""

from __future__ import annotations

from ...formula import Formula, Parts, definer
from ...results import Kind, Status

GIRGIS = "Girgis, Data, Diggavi, Suresh, Kairouz (CCS 2021)"


def _closed_forms() -> dict[str, Parts]:
    """The sympy expressions of this module's formulas, built on first use (sympy is slow to import)."""
    import sympy as sp

    from ...symbols import eps0, lam, n

    # integer Renyi order (Theorems 3.1, 3.4 and Corollaries 3.2, 3.5 need integer orders)
    lam_int = sp.Symbol("lambda", positive=True, integer=True)
    _i = sp.Symbol("i", positive=True, integer=True)
    _E = sp.exp(eps0)
    # n_bar = floor((n - 1)/(2 e^eps0)) + 1 of Theorem 3.1, named as the paper names it: the display
    # shows it once ("where"), the expression has it substituted
    nbar = sp.Symbol("nbar", positive=True, integer=True)
    NBAR = sp.floor((n - 1) / (2 * _E)) + 1
    named = ((nbar, NBAR),)
    _CHERNOFF = sp.exp(eps0 * lam_int - (n - 1) / (8 * _E))

    return {
        "girgis-upper-1": Parts(
            sp.log(1 + sp.binomial(lam_int, 2) * (_E - 1) ** 2 / (nbar * _E)
                   + sp.Sum(sp.binomial(lam_int, _i) * _i * sp.gamma(_i / 2)
                            * ((sp.exp(2 * eps0) - 1) ** 2 / (2 * sp.exp(2 * eps0) * nbar)) ** (_i / 2), (_i, 3, lam_int))
                   + _CHERNOFF) / (lam_int - 1),
            (eps0, n, lam_int),
            (lam_int >= 2,),
            named,
        ),
        "girgis-corollary-3.2": Parts(
            sp.log(1 + sp.binomial(lam_int, 2) * 4 * (_E - 1) ** 2 / n) / (lam_int - 1),
            (eps0, n, lam_int),
            (lam_int >= 2, lam_int**4 * sp.exp(5 * eps0) < n / 9),
        ),
        "girgis-upper-2": Parts(
            sp.log(sp.exp(lam**2 * (_E - 1) ** 2 / nbar) + sp.exp(eps0 * lam - (n - 1) / (8 * _E))) / (lam - 1),
            (eps0, n, lam),
            (lam > 1,),
            named,
        ),
        "girgis-upper-2-printed": Parts(
            sp.log(sp.exp(lam**2 * (eps0 - 1) ** 2 / n) + sp.exp(eps0 * lam - (n - 1) / (8 * eps0))) / (lam - 1),
            (eps0, n, lam),
            (lam > 1, eps0 > 0),
        ),
        "erlingsson-rdp": Parts(
            lam * 2 * sp.exp(4 * eps0) * (_E - 1) ** 2 / n,
            (eps0, n, lam),
            (lam > 1,),
        ),
        "girgis-corollary-3.5": Parts(
            sp.log(1 + sp.binomial(lam_int, 2) * (_E - 1) ** 2 / (n * _E)) / (lam_int - 1),
            (eps0, n, lam_int),
            (lam_int >= 2,),
        ),
        "chen-gdp": Parts(
            2 * sp.exp(eps0 / 2) / sp.sqrt(n - 1),
            (eps0, n),
            (n >= 2,),
        ),
        "chen-gdp-rdp": Parts(
            2 * sp.exp(eps0) * lam / (n - 1),
            (eps0, n, lam),
            (n >= 2, lam > 1),
        ),
        "chen-gdp-refined": Parts(
            sp.tanh(eps0 / 2) * 2 * sp.exp(eps0 / 2) / sp.sqrt(n - 1),
            (eps0, n),
            (n >= 2,),
        ),
    }


def _symbols() -> dict:
    import sympy as sp

    from ...symbols import eps0, n

    lam_int = sp.Symbol("lambda", positive=True, integer=True)
    return {"lam_int": lam_int, "NBAR": sp.floor((n - 1) / (2 * sp.exp(eps0))) + 1}


def __getattr__(name):
    """``lam_int`` (the integer Renyi order symbol) and ``NBAR`` (n_bar of Theorem 3.1) for
    derivations, built on first use like the formulas."""
    if name in ("lam_int", "NBAR"):
        return _symbols()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_RDP_LHS = r"\epsilon(\lambda)"


_declare = definer(_closed_forms)


def _define(name: str, kind: Kind, status: Status, source: str, lhs: str = _RDP_LHS, **labels) -> Formula:
    """A formula of this module (its expression from :func:`_closed_forms`), registered; its
    kind and status are set here, in this one place."""
    return _declare(name, kind=kind, status=status, source=source, lhs=lhs, **labels)


UPPER_1 = _define(
    "girgis-upper-1", Kind.UPPER, Status.PROVEN, f"{GIRGIS}, Theorem 3.1",
    erratum=("all terms inside the log, $\\binom{\\lambda}{2}$ for the printed $(\\lambda/2)$ "
             "(docs/errata.md#girgis2021-theorem-3-1)"),
    description="RDP upper bound 1 of the shuffle model, integer orders")

COROLLARY_3_2 = _define(
    "girgis-corollary-3.2", Kind.UPPER, Status.UNPROVEN, f"{GIRGIS}, Corollary 3.2",
    erratum="$\\binom{\\lambda}{2}$ for the printed $(\\lambda/2)$ (docs/errata.md#girgis2021-corollary-3-2)",
    description="simplified upper bound 1",
    status_note="a valid upper bound where it is at least Theorem 3.1, which every evaluation checks")

UPPER_2 = _define(
    "girgis-upper-2", Kind.UPPER, Status.PROVEN, f"{GIRGIS}, Theorem 3.3",
    erratum=("$(e^{\\epsilon_0} - 1)^2 / \\bar{n}$ and $8 e^{\\epsilon_0}$ for the printed $(\\epsilon_0 - 1)^2 / n$ and $8 \\epsilon_0$ "
             "(docs/errata.md#girgis2021-theorem-3-3)"),
    description="RDP upper bound 2 of the shuffle model, real orders")

UPPER_2_PRINTED = _define(
    "girgis-upper-2-printed", Kind.UPPER, Status.REFUTED, f"{GIRGIS}, Theorem 3.3 as printed",
    description="Theorem 3.3 exactly as printed; below the exact RDP of binary randomized response")

ERLINGSSON_RDP = _define(
    "erlingsson-rdp", Kind.UPPER, Status.PROVEN,
    "Erlingsson et al. (2019), Remark 1, as quoted by Girgis et al. (2021), eq. (9)")

COROLLARY_3_5 = _define(
    "girgis-corollary-3.5", Kind.LOWER, Status.PROVEN, f"{GIRGIS}, Corollary 3.5",
    description="simplified lower bound on the worst-case RDP over $\\epsilon_0$-LDP randomizers")

CHEN_GDP = _define(
    "chen-gdp", Kind.APPROXIMATION, Status.NOT_A_BOUND, "Chen, Cao, Ge (2024), Theorem 2", r"\mu",
    description="asymptotic GDP parameter of the shuffled $\\epsilon_0$-LDP process (a central-limit approximation)")

CHEN_RDP = _define(
    "chen-gdp-rdp", Kind.APPROXIMATION, Status.NOT_A_BOUND, "Chen, Cao, Ge (2024), Corollary 2",
    description="asymptotic RDP (an approximation, not a bound); loose by $\\coth^2(\\epsilon_0/2)$ against the exact pair")

CHEN_GDP_REFINED = _define(
    "chen-gdp-refined", Kind.APPROXIMATION, Status.NOT_A_BOUND,
    "dptheory: Gaussian limit of the clone pair of Chen, Cao, Ge (2024), Theorem 2, with the victim's coin "
    "(derived here: docs/errata.md#derived-chen-refined-limit)", r"\mu",
    description="$\\tanh(\\epsilon_0/2)$ times Theorem 2's $\\mu$: the Gaussian limit of the pair with the victim's coin")
