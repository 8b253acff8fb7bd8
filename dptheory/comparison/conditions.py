"""Blackwell dominance as catalogue formulas: Theorem 1's clauses and the closed-form conditions
of the parametric families (Kaissis et al. 2024; derivations/blackwell_dominance.py derives and
checks every one).

M ⪰ M~ ("M Blackwell-dominates M~": M is less private; the paper writes M >= M~) iff f <= f~
pointwise (clause (1)) iff delta(eps) >= delta~(eps) for every real eps (clause (2)) iff
R_min(pi) <= R~_min(pi) for every prior (clause (3)) iff Delta(M || M~) = 0 (Definition 2 and
Theorem 2 with D = 0). Within the families the conditions are on the parameters:

* Gaussian G_mu1 ⪰ G_mu2 iff mu1 >= mu2 (Lemma B.2, eq. (66); composed: T1 mu1^2 >= T2 mu2^2);
* Laplace, binary randomized response: eps1 >= eps2; k-ary randomized response: eps1 >= eps2
  and k1/(e^eps1 + k1 - 1) <= k2/(e^eps2 + k2 - 1) (one k: eps1 >= eps2);
* across families: a symmetric M dominates RR_eps iff its fixed point alpha* <= 1/(1 + e^eps);
  RR_eps dominates M iff M is eps-DP (delta_M(eps) = 0); G_mu ⪰ Lap_eps iff Phi(-mu/2) <=
  e^{-eps/2}/2; neither Laplace nor randomized response dominates a Gaussian with mu > 0.

Each is a :class:`Condition`: a :class:`~dptheory.formula.Formula` whose expression is a sympy
condition. Its LaTeX is the statement, ``\\iff`` and the condition (with the quantifier of
Theorem 1's clauses); its numpy and mpmath functions, generated from the expression, return
booleans. A clause formula takes the two curves' values at one point (or arrays of points): it
says whether the clause holds there, and the clause holds iff it holds at every point.
"""

from __future__ import annotations

import numpy as np

from ..formula import Formula, Parts, register
from ..results import Kind, Status

PAPER = "Kaissis et al. (2024)"
DERIVED = "derived here (derivations/blackwell_dominance.py)"


class Condition(Formula):
    """A necessary and sufficient condition, as a formula.

    ``lhs`` is the statement (``G_{\\mu_1} \\succeq G_{\\mu_2}``), the expression the condition
    (a sympy relational or a conjunction of them), ``quantifier`` an optional LaTeX prefix of the
    condition (``\\forall \\alpha \\in [0, 1]``). :meth:`latex` prints ``statement \\iff
    [quantifier:] condition``; the generated functions return booleans (arrays of them for
    array arguments).
    """

    def __init__(self, name: str, *, quantifier: str = "", **kwargs) -> None:
        super().__init__(name, kind=Kind.EXACT, status=Status.PROVEN, **kwargs)
        self.quantifier = quantifier

    def latex(self) -> str:
        from ..presentation.notation import to_latex

        body = to_latex(self._shown()[0])
        prefix = f"{self.quantifier}:\\ " if self.quantifier else ""
        return f"{self.lhs} \\iff {prefix}{body}"

    def display_lines(self, width: float | None = None) -> list[str]:
        """A condition is short: one line, :meth:`latex`."""
        return [self.latex()]

    def latex_with_conditions(self) -> str:
        """The statement as a paper prints it: :meth:`latex` and the domain of the parameters it
        shows. The arguments that stand for a named value (f(alpha), Delta(M || M~), alpha*, ...:
        :attr:`where`) are the formula's to evaluate, not part of the statement: their ranges
        are in :meth:`conditions_latex`, not here."""
        hidden = set()
        for _, definition in self.where:
            hidden |= definition.free_symbols
        if not hidden:
            return super().latex_with_conditions()
        import sympy as sp

        shown = tuple(p for p in self.params if p not in hidden)
        conds = tuple(c for c in self.conditions if not (c.free_symbols & hidden))
        domain = Formula(self.name, sp.true, shown, kind=self.kind, source=self.source,
                         conditions=conds).conditions_line()
        return self.latex() + (f", \\quad \\text{{for }} {domain}" if domain else "")

    def numpy(self, *, check: bool = True):
        fn = super().numpy(check=check)

        def condition(*args, **kwargs):
            out = fn(*args, **kwargs)
            return bool(out) if np.ndim(out) == 0 else np.asarray(out) != 0

        condition.__doc__ = fn.__doc__
        return condition

    def mpmath(self, digits: int | None = 50, *, check: bool = True):
        fn = super().mpmath(digits, check=check)

        def condition(*args, **kwargs):
            return bool(fn(*args, **kwargs))

        condition.__doc__ = fn.__doc__
        return condition


def _conditions() -> dict[str, Parts]:
    import sympy as sp

    from ..symbols import Phi

    alpha = sp.Symbol("alpha")
    eps = sp.Symbol("epsilon", real=True)
    prior = sp.Symbol("pi_prior")
    half = sp.Rational(1, 2)

    def values(first: str, second: str, high=1):
        a, b = sp.Symbol(first, nonnegative=True), sp.Symbol(second, nonnegative=True)
        return a, b, (a <= high, b <= high)

    f, ft = sp.Function("f"), sp.Function("ftilde")
    fa, fta, f_range = values("f_alpha", "ftilde_alpha")
    d, dt = sp.Function("delta"), sp.Function("deltatilde")
    da, dta, d_range = values("delta_epsilon", "deltatilde_epsilon")
    r, rt = sp.Function(r"R_{\min}"), sp.Function(r"\tilde{R}_{\min}")
    ra, rta, r_range = values("R_pi", "Rtilde_pi", half)
    delta_name = sp.Symbol(r"\Delta(\mathcal{M}\|\tilde{\mathcal{M}})")
    big_d = sp.Symbol("D", nonnegative=True)

    mu, mu1, mu2 = (sp.Symbol(s, nonnegative=True) for s in ("mu", "mu_1", "mu_2"))
    e, e1, e2 = (sp.Symbol(s, nonnegative=True) for s in ("epsilon", "epsilon_1", "epsilon_2"))
    t1, t2 = sp.Symbol("T_1", integer=True, positive=True), sp.Symbol("T_2", integer=True, positive=True)
    k1, k2 = sp.Symbol("k_1", integer=True, positive=True), sp.Symbol("k_2", integer=True, positive=True)
    star_name = sp.Symbol(r"\alpha^{*}_{\mathcal{M}}")
    star = sp.Symbol("alpha_star", nonnegative=True)
    delta_m = sp.Function(r"\delta_{\mathcal{M}}")
    delta_at = sp.Symbol("delta_epsilon", nonnegative=True)
    rr_fixed_point = lambda x: 1 / (1 + sp.exp(x))  # noqa: E731 - alpha* of RR_eps
    return {
        "blackwell-tradeoff": Parts(f(alpha) <= ft(alpha), (fa, fta), f_range,
                                    ((f, sp.Lambda(alpha, fa)), (ft, sp.Lambda(alpha, fta)))),
        "blackwell-profile": Parts(d(eps) >= dt(eps), (da, dta), d_range,
                                   ((d, sp.Lambda(eps, da)), (dt, sp.Lambda(eps, dta)))),
        "blackwell-bayes-error": Parts(r(prior) <= rt(prior), (ra, rta), r_range,
                                       ((r, sp.Lambda(prior, ra)), (rt, sp.Lambda(prior, rta)))),
        "blackwell-delta-divergence": Parts(sp.Eq(delta_name, 0), (big_d,), (big_d <= half,),
                                            ((delta_name, big_d),)),
        "blackwell-gaussian": Parts(mu1 >= mu2, (mu1, mu2)),
        "blackwell-gaussian-composed": Parts(t1 * mu1**2 >= t2 * mu2**2, (mu1, t1, mu2, t2)),
        "blackwell-laplace": Parts(e1 >= e2, (e1, e2)),
        "blackwell-rr": Parts(e1 >= e2, (e1, e2)),
        "blackwell-rr-k": Parts(sp.And(e1 >= e2, k1 / (sp.exp(e1) + k1 - 1) <= k2 / (sp.exp(e2) + k2 - 1)),
                                (e1, e2, k1, k2), (k1 >= 2, k2 >= 2)),
        "blackwell-gaussian-laplace": Parts(Phi(-mu / 2) <= sp.exp(-e / 2) / 2, (mu, e)),
        "blackwell-laplace-gaussian": Parts(sp.Eq(mu, 0), (e, mu)),
        "blackwell-gaussian-rr": Parts(Phi(-mu / 2) <= rr_fixed_point(e), (mu, e)),
        "blackwell-rr-gaussian": Parts(sp.Eq(mu, 0), (e, mu)),
        "blackwell-laplace-rr": Parts(sp.exp(-e1 / 2) / 2 <= rr_fixed_point(e2), (e1, e2)),
        "blackwell-rr-laplace": Parts(e1 >= e2, (e1, e2)),
        "blackwell-symmetric-rr": Parts(star_name <= rr_fixed_point(e), (star, e), (star <= half,),
                                        ((star_name, star),)),
        "blackwell-rr-pure-dp": Parts(sp.Eq(delta_m(e), 0), (e, delta_at), (delta_at <= 1,),
                                      ((delta_m, sp.Lambda(e, delta_at)),)),
    }


def _c(name, statement, source, description, quantifier=""):
    return register(Condition(name, build=_conditions, lhs=statement, source=source, description=description,
                              quantifier=quantifier))


_M = r"\mathcal{M} \succeq \tilde{\mathcal{M}}"
_THEOREM1 = f"{PAPER}, Theorem 1"

# ------------------------------------------------------------------ Theorem 1, for any two mechanisms
BLACKWELL_TRADEOFF = _c(
    "blackwell-tradeoff", _M, f"{_THEOREM1}, clause (1) (Dong, Roth, Su (2022), Sections 2.3-2.4)",
    r"$\mathcal{M}$ Blackwell-dominates $\tilde{\mathcal{M}}$ (is less private) iff its trade-off function is "
    r"below: arguments $f(\alpha)$, $\tilde{f}(\alpha)$ at one $\alpha$ (or arrays)", r"\forall \alpha \in [0, 1]")
BLACKWELL_PROFILE = _c(
    "blackwell-profile", _M, f"{_THEOREM1}, clause (2) (Dong, Roth, Su (2022), Sections 2.3-2.4)",
    r"$\mathcal{M}$ Blackwell-dominates $\tilde{\mathcal{M}}$ iff its privacy profile is above at every real "
    r"$\epsilon$: arguments $\delta(\epsilon)$, $\tilde{\delta}(\epsilon)$ at one $\epsilon$ (or arrays)", r"\forall \epsilon \in \mathbb{R}")
BLACKWELL_BAYES_ERROR = _c(
    "blackwell-bayes-error", _M, f"{_THEOREM1}, clause (3) (proof: Theorem 2 with D = 0, Appendix B.4)",
    r"$\mathcal{M}$ Blackwell-dominates $\tilde{\mathcal{M}}$ iff its minimum Bayes error (eq. (2)) is below at "
    r"every prior: arguments $R(\pi)$, $\tilde{R}(\pi)$ at one prior (or arrays)", r"\forall \pi \in [0, 1]")
BLACKWELL_DELTA_DIVERGENCE = _c(
    "blackwell-delta-divergence", _M, f"{PAPER}, Definition 2 and Theorem 2 with D = 0; Corollary 1",
    r"$\mathcal{M}$ Blackwell-dominates $\tilde{\mathcal{M}}$ iff the $\Delta$-divergence "
    r"$\Delta(\mathcal{M} \| \tilde{\mathcal{M}}) = \max_\pi (R(\pi) - \tilde{R}(\pi))$ is 0: argument "
    r"$D = \Delta(\mathcal{M} \| \tilde{\mathcal{M}})$")

# ------------------------------------------------------------------ within one family
BLACKWELL_GAUSSIAN = _c(
    "blackwell-gaussian", r"G_{\mu_1} \succeq G_{\mu_2}", f"{PAPER}, Lemma B.2, eq. (66)",
    r"Gaussian mechanisms are totally ordered: the larger $\mu$ dominates (is less private); as functions "
    r"$G_{\mu_1} \leq G_{\mu_2}$ pointwise, which Lemma B.2 writes $G_{\mu_2} \geq G_{\mu_1}$")
BLACKWELL_GAUSSIAN_COMPOSED = _c(
    "blackwell-gaussian-composed", r"G_{\mu_1}^{\otimes T_1} \succeq G_{\mu_2}^{\otimes T_2}",
    f"{PAPER}, Lemma B.2, with $G_\\mu^{{\\otimes T}} = G_{{\\sqrt{{T}}\\mu}}$ (Dong, Roth, Su (2022), Corollary 3.3)",
    "$T_1$-fold against $T_2$-fold composed Gaussian mechanisms (the order of the Gaussian surrogates in the proof "
    "of Theorem 3, eq. (79))")
BLACKWELL_LAPLACE = _c(
    "blackwell-laplace", r"\mathrm{Lap}_{\epsilon_1} \succeq \mathrm{Lap}_{\epsilon_2}",
    f"{DERIVED}, from {PAPER}, Theorem 1, clause (3)",
    "Laplace mechanisms ($\\epsilon$ = sensitivity / scale) are totally ordered: the larger $\\epsilon$ dominates")
BLACKWELL_RR = _c(
    "blackwell-rr", r"\mathrm{RR}_{\epsilon_1} \succeq \mathrm{RR}_{\epsilon_2}",
    f"{DERIVED}, from {PAPER}, Theorem 1, clause (3)",
    "binary randomized responses are totally ordered: the larger $\\epsilon$ dominates")
BLACKWELL_RR_K = _c(
    "blackwell-rr-k", r"\mathrm{RR}^{k_1}_{\epsilon_1} \succeq \mathrm{RR}^{k_2}_{\epsilon_2}",
    f"{DERIVED}, from {PAPER}, Theorem 1, clause (3)",
    r"$k_1$-ary against $k_2$-ary randomized response: the order of the $\epsilon$ and of the fixed points "
    r"$\alpha^* = k/(2(e^\epsilon + k - 1))$; with one $k$, $\epsilon_1 \geq \epsilon_2$")

# ------------------------------------------------------------------ across families
BLACKWELL_GAUSSIAN_LAPLACE = _c(
    "blackwell-gaussian-laplace", r"G_{\mu} \succeq \mathrm{Lap}_{\epsilon}",
    f"{DERIVED}, from {PAPER}, Theorem 1, clause (3)",
    r"a Gaussian mechanism dominates a Laplace mechanism iff its fixed point $\Phi(-\mu/2)$ is at most "
    r"Laplace's, $e^{-\epsilon/2}/2$")
BLACKWELL_LAPLACE_GAUSSIAN = _c(
    "blackwell-laplace-gaussian", r"\mathrm{Lap}_{\epsilon} \succeq G_{\mu}",
    f"{DERIVED}, from {PAPER}, Theorem 1, clause (3) and Lemma 2",
    "a Laplace mechanism never dominates a Gaussian mechanism with $\\mu > 0$ ($G_0$ is perfectly private)")
BLACKWELL_GAUSSIAN_RR = _c(
    "blackwell-gaussian-rr", r"G_{\mu} \succeq \mathrm{RR}_{\epsilon}",
    f"{DERIVED}, from {PAPER}, Theorem 1, clause (3) and Lemmas 2 and 4",
    r"a Gaussian mechanism dominates binary randomized response iff its fixed point $\Phi(-\mu/2)$ is at most "
    r"$1/(1 + e^\epsilon)$")
BLACKWELL_RR_GAUSSIAN = _c(
    "blackwell-rr-gaussian", r"\mathrm{RR}_{\epsilon} \succeq G_{\mu}",
    f"{DERIVED}, from {PAPER}, Theorem 1, clause (1), and Dong, Roth, Su (2022), Proposition 2.5",
    "binary randomized response never dominates a Gaussian mechanism with $\\mu > 0$ (which is $\\epsilon$-DP for no $\\epsilon$)")
BLACKWELL_LAPLACE_RR = _c(
    "blackwell-laplace-rr", r"\mathrm{Lap}_{\epsilon_1} \succeq \mathrm{RR}_{\epsilon_2}",
    f"{DERIVED}, from {PAPER}, Theorem 1, clause (3) and Lemmas 2 and 4",
    r"a Laplace mechanism dominates binary randomized response iff its fixed point $e^{-\epsilon_1/2}/2$ is at "
    r"most $1/(1 + e^{\epsilon_2})$")
BLACKWELL_RR_LAPLACE = _c(
    "blackwell-rr-laplace", r"\mathrm{RR}_{\epsilon_1} \succeq \mathrm{Lap}_{\epsilon_2}",
    f"{DERIVED}, from {PAPER}, Theorem 1, clause (1), and Dong, Roth, Su (2022), Proposition 2.5",
    r"binary randomized response dominates a Laplace mechanism iff the Laplace mechanism is $\epsilon_1$-DP")
BLACKWELL_SYMMETRIC_RR = _c(
    "blackwell-symmetric-rr", r"\mathcal{M} \succeq \mathrm{RR}_{\epsilon}",
    f"{DERIVED}, from {PAPER}, Theorem 1, clause (3) and Lemmas 2 and 4",
    r"a mechanism with a symmetric trade-off function dominates binary randomized response iff its fixed point "
    r"$\alpha^* = R_{\min}(1/2)$ (Lemma 4) is at most that of $\mathrm{RR}_\epsilon$, $1/(1 + e^\epsilon)$")
BLACKWELL_RR_PURE_DP = _c(
    "blackwell-rr-pure-dp", r"\mathrm{RR}_{\epsilon} \succeq \mathcal{M}",
    f"{DERIVED}, from {PAPER}, Theorem 1, clause (1), and Dong, Roth, Su (2022), Proposition 2.5 "
    r"($\mathrm{RR}_\epsilon$ has the trade-off function $f_{\epsilon,0}$)",
    r"binary randomized response dominates a mechanism with a symmetric trade-off function iff the mechanism "
    r"is $\epsilon$-DP: $\delta_\mathcal{M}(\epsilon) = 0$")

#: every condition of this module, in the order of the module text
CONDITIONS = (BLACKWELL_TRADEOFF, BLACKWELL_PROFILE, BLACKWELL_BAYES_ERROR, BLACKWELL_DELTA_DIVERGENCE,
              BLACKWELL_GAUSSIAN, BLACKWELL_GAUSSIAN_COMPOSED, BLACKWELL_LAPLACE, BLACKWELL_RR, BLACKWELL_RR_K,
              BLACKWELL_GAUSSIAN_LAPLACE, BLACKWELL_LAPLACE_GAUSSIAN, BLACKWELL_GAUSSIAN_RR, BLACKWELL_RR_GAUSSIAN,
              BLACKWELL_LAPLACE_RR, BLACKWELL_RR_LAPLACE, BLACKWELL_SYMMETRIC_RR, BLACKWELL_RR_PURE_DP)
