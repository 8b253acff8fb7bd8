"""The closed forms of the shuffle model's Renyi DP side by side: their leading orders in n and
their ratios (Girgis et al. CCS 2021, Erlingsson et al. 2019 as quoted there, Chen, Cao, Ge 2024,
Table 1 and Section 3.3). This is Chen et al.'s Table 1, corrected (docs/errata.md#chen2024-section-3-3).

Every bound is lam c(eps0)/n + o(1/n) (n * eps(lam) computed as a limit, n_bar of Girgis et al.
replaced by (n-1)/(2 e^eps0) + theta, 0 <= theta <= 1, which covers its floor; Theorem 3.1's i >= 3
and Chernoff terms are o(1/n), see girgis_upper_bounds.py):

    upper bound 1 (Theorem 3.1)    lam (e^eps0 - 1)^2
    eq. (9) (Erlingsson)           2 lam e^{4 eps0} (e^eps0 - 1)^2
    lower bound (Corollary 3.5)    lam (e^eps0 - 1)^2 / (2 e^eps0)
    Chen Corollary 2 (approx.)     2 lam e^eps0
    refined limit (approx.)        2 lam e^eps0 tanh^2(eps0/2)

Ratios: upper 1 / lower = 2 e^eps0 (the gap between Girgis et al.'s bounds); Corollary 2 / refined =
coth^2(eps0/2); refined / lower = 4 e^{2 eps0}/(e^eps0 + 1)^2, in [1, 4): the refined Gaussian
limit sits between the lower bound and 4 times it. Chen et al.'s Section 3.3 comparison with their
eq. (5) (their transcription of Girgis et al.'s Theorem 3.3) holds with the factor lam^2/(lam-1),
not lam/(lam-1): UB2 / Corollary 2 = lam (e^eps0 - 1)^2 / (lam - 1).

Run: python derivations/shuffle_rdp_closed_forms.py   (prints LaTeX and one "check ...: ok" line per check)
"""

import sympy as sp

from _derivation import Checks, is_zero, show_expr, show_formula
from dptheory.shuffle.rdp import formulas as F
from dptheory.symbols import eps0, lam, n

E = sp.exp(eps0)
theta = sp.Symbol("theta", nonnegative=True)
LAM = sp.Symbol("lambda", positive=True)   # one order symbol for every formula


def _common(expr):
    """The expression over one order symbol, with n_bar = (n-1)/(2 e^eps0) + theta and Theorem
    3.1's i >= 3 sum dropped (o(1/n))."""
    expr = expr.xreplace({s: 0 for s in expr.atoms(sp.Sum)})
    return expr.xreplace({F.NBAR: (n - 1) / (2 * E) + theta}).subs({F.lam_int: LAM, lam: LAM})


FORMULAS = {"UB1": F.UPPER_1, "UB2": F.UPPER_2, "eq. 9": F.ERLINGSSON_RDP, "Corollary 3.5": F.COROLLARY_3_5,
            "Corollary 2": F.CHEN_RDP}


def leading_constants(overrides=None) -> dict:
    """lim n -> oo of n eps(lam) for each closed form (and the refined Gaussian limit)."""
    exprs = {k: f.expr for k, f in FORMULAS.items()}
    exprs["refined"] = LAM * F.CHEN_GDP_REFINED.expr ** 2 / 2
    exprs.update(overrides or {})
    return {k: sp.simplify(sp.limit(n * _common(e), n, sp.oo)) for k, e in exprs.items()}


EXPECTED = {"UB1": LAM * (E - 1) ** 2, "UB2": 2 * LAM**2 * E * (E - 1) ** 2 / (LAM - 1),
            "eq. 9": 2 * LAM * sp.exp(4 * eps0) * (E - 1) ** 2, "Corollary 3.5": LAM * (E - 1) ** 2 / (2 * E),
            "Corollary 2": 2 * LAM * E, "refined": 2 * LAM * E * sp.tanh(eps0 / 2) ** 2}


def check_leading(constants=None) -> bool:
    constants = leading_constants() if constants is None else constants
    return all(is_zero(constants[k] - EXPECTED[k], rewrite_exp=True) for k in EXPECTED)


def check_ratios(constants=None) -> bool:
    c = leading_constants() if constants is None else constants
    x = sp.Symbol("x", positive=True)  # e^eps0 = 1 + x
    refined_over_lower = sp.simplify((c["refined"] / c["Corollary 3.5"]).rewrite(sp.exp))
    in_x = sp.simplify(refined_over_lower.subs(eps0, sp.log(1 + x)))
    between = (sp.factor(in_x - 1).is_nonnegative and sp.factor(4 - in_x).is_positive)
    return (is_zero(c["UB1"] / c["Corollary 3.5"] - 2 * E, rewrite_exp=True)
            and is_zero(c["Corollary 2"] / c["refined"] - sp.coth(eps0 / 2) ** 2, rewrite_exp=True)
            and is_zero(refined_over_lower - 4 * E**2 / (E + 1) ** 2)
            and bool(between)
            and is_zero(c["UB2"] / c["Corollary 2"] - LAM * (E - 1) ** 2 / (LAM - 1)))


#: how each closed form is named in a display
LABELS = {"UB1": r"\mathrm{Theorem~3.1}", "UB2": r"\mathrm{Theorem~3.3}", "eq. 9": r"\mathrm{eq.~(9)}",
          "Corollary 3.5": r"\mathrm{Corollary~3.5}", "Corollary 2": r"\mathrm{Chen~Corollary~2}",
          "refined": r"\mathrm{refined}"}


def _ratio(a: str, b: str) -> str:
    return f"\\lim_{{n\\to\\infty}} \\frac{{\\epsilon_{{{LABELS[a]}}}}}{{\\epsilon_{{{LABELS[b]}}}}}"


def main() -> None:
    check = Checks()
    print("The shuffle model's RDP closed forms: orders in $n$\n")
    for f in (*FORMULAS.values(), F.CHEN_GDP_REFINED):
        show_formula(f)
    constants = leading_constants()
    print("\n$n\\,\\epsilon(\\lambda)$ as $n \\to \\infty$ (the refined limit: $\\lambda\\mu^2/2$ at its $\\mu$):")
    for name, value in constants.items():
        show_expr(f"\\lim_{{n\\to\\infty}} n\\,\\epsilon_{{{LABELS[name]}}}(\\lambda)", value)
    check("leading-orders", check_leading(constants))
    print("\nratios:")
    show_expr(_ratio("UB1", "Corollary 3.5"), sp.simplify((constants["UB1"] / constants["Corollary 3.5"]).rewrite(sp.exp)))
    show_expr(_ratio("Corollary 2", "refined"), sp.coth(eps0 / 2) ** 2)
    show_expr(_ratio("refined", "Corollary 3.5"), 4 * E**2 / (E + 1) ** 2)
    show_expr(_ratio("UB2", "Corollary 2"), sp.simplify(constants["UB2"] / constants["Corollary 2"]))
    check("ratios", check_ratios(constants))
    check.finish()


if __name__ == "__main__":
    main()
