"""Closed forms of mechanism comparison (Kaissis et al. 2024, and the toolkit's own derivations:
derivations/delta_divergence_gaussian.py, _laplace.py, _rr.py derive them with sympy), as
:class:`~dptheory.formula.Formula` objects. The Blackwell dominance conditions are in
:mod:`dptheory.comparison.conditions`.

Delta within one family (derived here from Corollary 1, and checked against the certified
numerics):

* Gaussian: Delta(G_mu1 || G_mu2) = max{0, Phi(-mu1/2) - Phi(-mu2/2)} (the maximum of
  R_mu1 - R_mu2 is at pi = 1/2, where R = alpha* = Phi(-mu/2));
* Laplace: max{0, (e^{-eps1/2} - e^{-eps2/2})/2};
* binary randomized response: max{0, 1/(1 + e^eps1) - 1/(1 + e^eps2)};
* k-ary randomized response, one k: max{0, (k/2) (1/(e^eps1 + k - 1) - 1/(e^eps2 + k - 1))}
  (ours: R(pi) = (pi + (k-2) min(pi, 1-pi) + min(pi e^eps, 1-pi)) / (e^eps + k - 1) on pi <= 1/2,
  derived in derivations/delta_divergence_rr.py; k = 2 is the binary form).

:func:`family_delta` evaluates them for two mechanisms of one family: the sign is decided
exactly from the parameters (each closed form is a strictly monotone function of one parameter
difference: 0 exactly when the first mechanism has the larger parameter, positive otherwise)
and the value is generated from the Formula with mpmath (50 digits, more if the difference
cancels), rounded outwards, in log space too (values far below the float range stay
positive).

PLRV moments (the functionals (8)-(12) as moments of the privacy loss X, derived here; see
:mod:`.plrv`: v1 = KL(P||Q), v2 = E X^2, v3 = E|X - E X|^3, v4 = E|X|^3): Gaussian
(X ~ N(-mu^2/2, mu^2)), Laplace (v1, v2), binary randomized response (X = +-eps, all four).
Theorem 3's Berry-Esseen gamma (85) and bound (14), and a precondition-free form derived here.
"""

from __future__ import annotations

from ..formula import Formula, Parts, definer
from ..results import Kind, Status

PAPER = "Kaissis et al. (2024)"


def _closed_forms() -> dict[str, Parts]:
    import sympy as sp

    from ..symbols import Phi, mu, pi as prior

    mu1 = sp.Symbol("mu_1", nonnegative=True)
    mu2 = sp.Symbol("mu_2", nonnegative=True)
    e1 = sp.Symbol("epsilon_1", nonnegative=True)
    e2 = sp.Symbol("epsilon_2", nonnegative=True)
    epos = sp.Symbol("epsilon", nonnegative=True)  # a pure-DP epsilon (RR, Laplace): >= 0
    kk = sp.Symbol("k", integer=True, positive=True)
    v1, v2, v3 = (sp.Symbol(f"v_{i}", positive=True) for i in (1, 2, 3))
    N = sp.Symbol("N", positive=True, integer=True)
    eta, eta2 = sp.Symbol("eta", positive=True), sp.Symbol("eta_2", positive=True)
    N2 = sp.Symbol("N_2", positive=True, integer=True)
    g1, g2 = sp.Symbol("gamma_1", nonnegative=True), sp.Symbol("gamma_2", nonnegative=True)
    phi = sp.exp(-(mu / 2) ** 2 / 2) / sp.sqrt(2 * sp.pi)  # density at a = -mu/2 (even)
    a = -mu / 2  # E X / SD X of the Gaussian PLRV
    t = sp.tanh(epos / 2)
    return {
        "delta-divergence-gaussian": Parts(sp.Max(0, Phi(-mu1 / 2) - Phi(-mu2 / 2)), (mu1, mu2)),
        "delta-divergence-laplace": Parts(sp.Max(0, (sp.exp(-e1 / 2) - sp.exp(-e2 / 2)) / 2), (e1, e2)),
        "delta-divergence-rr": Parts(sp.Max(0, 1 / (1 + sp.exp(e1)) - 1 / (1 + sp.exp(e2))), (e1, e2)),
        "delta-divergence-rr-k": Parts(sp.Max(0, kk / 2 * (1 / (sp.exp(e1) + kk - 1) - 1 / (sp.exp(e2) + kk - 1))),
                                       (e1, e2, kk)),
        "laplace-bayes-error": Parts(
            sp.Min(prior, 1 - prior, sp.exp(-mu / 2) * sp.sqrt(prior * (1 - prior))), (mu, prior), (prior <= 1,)),
        "rr-bayes-error": Parts(sp.Min(prior, 1 - prior, 1 / (1 + sp.exp(epos))), (epos, prior), (prior <= 1,)),
        "gdp-total-variation": Parts(2 * Phi(mu / 2) - 1, (mu,)),
        "gaussian-plrv-v1": Parts(mu**2 / 2, (mu,)),
        "gaussian-plrv-v2": Parts(mu**2 + mu**4 / 4, (mu,)),
        "gaussian-plrv-v3": Parts(2 * sp.sqrt(2 / sp.pi) * mu**3, (mu,)),
        "gaussian-plrv-v4": Parts(mu**3 * ((a**3 + 3 * a) * (1 - 2 * Phi(-a)) + 2 * (a**2 + 2) * phi), (mu,)),
        "gaussian-plrv-eta": Parts(mu / 2, (mu,)),
        "laplace-plrv-v1": Parts(epos - 1 + sp.exp(-epos), (epos,)),
        "laplace-plrv-v2": Parts(epos**2 - 2 * epos + 4 - (2 * epos + 4) * sp.exp(-epos), (epos,)),
        "rr-plrv-v1": Parts(epos * t, (epos,)),
        "rr-plrv-v2": Parts(epos**2, (epos,)),
        "rr-plrv-v3": Parts(epos**3 * (1 - t**2) * (1 + t**2), (epos,)),
        "rr-plrv-v4": Parts(epos**3, (epos,)),
        "rr-plrv-eta": Parts(sp.sinh(epos / 2), (epos,)),
        "berry-esseen-gamma": Parts(sp.Rational(56, 100) * v3 / (sp.sqrt(N) * (v2 - v1**2) ** sp.Rational(3, 2)),
                                    (v1, v2, v3, N), (v2 > v1**2,)),
        "theorem3-generalised": Parts(g1 + g2 + sp.Max(0, Phi(-sp.sqrt(N) * eta) - Phi(-sp.sqrt(N2) * eta2)),
                                      (g1, g2, eta, N, eta2, N2)),
    }


_declare = definer(_closed_forms, kind=Kind.EXACT, status=Status.PROVEN)


def _f(name, lhs, source, description="", **labels) -> Formula:
    return _declare(name, lhs=lhs, source=source, description=description, **labels)


_MOMENT = "derived here (the moment of the privacy loss X, see dptheory.comparison.plrv)"

DELTA_GAUSSIAN = _f("delta-divergence-gaussian", r"\Delta(G_{\mu_1}\|G_{\mu_2})",
                    f"derived here (derivations/delta_divergence_gaussian.py), from {PAPER}, Corollary 1 and Lemma 4",
                    "Delta-divergence between two Gaussian mechanisms")
DELTA_LAPLACE = _f("delta-divergence-laplace", r"\Delta(\mathrm{Lap}_{\epsilon_1}\|\mathrm{Lap}_{\epsilon_2})",
                   f"derived here (derivations/delta_divergence_laplace.py), from {PAPER}, Corollary 1",
                   "Delta-divergence between two Laplace mechanisms")
DELTA_RR = _f("delta-divergence-rr", r"\Delta(\mathrm{RR}_{\epsilon_1}\|\mathrm{RR}_{\epsilon_2})",
              f"derived here (derivations/delta_divergence_rr.py), from {PAPER}, Corollary 1",
              "Delta-divergence between two binary randomized responses")
DELTA_RR_K = _f("delta-divergence-rr-k", r"\Delta(\mathrm{RR}^{k}_{\epsilon_1}\|\mathrm{RR}^{k}_{\epsilon_2})",
                f"derived here (derivations/delta_divergence_rr.py), from {PAPER}, Corollary 1",
                "Delta-divergence between two k-ary randomized responses with the same k")
LAPLACE_BAYES_ERROR = _f("laplace-bayes-error", r"R_{\min}(\pi)",
                         f"derived here (derivations/delta_divergence_laplace.py), from {PAPER}, eq. (2)",
                         "minimum Bayes error of the Laplace mechanism ($\\mu$ = sensitivity / scale)")
RR_BAYES_ERROR = _f("rr-bayes-error", r"R_{\min}(\pi)",
                    f"derived here (derivations/delta_divergence_rr.py), from {PAPER}, eq. (2) for $f_{{\\epsilon,0}}$",
                    "minimum Bayes error of binary randomized response")
GDP_TV = _f("gdp-total-variation", r"\mathrm{TV}",
            f"{PAPER}, eq. (27) ($\\mathrm{{TV}} = \\delta(0)$), with Dong, Roth, Su (2022), Corollary 2.13 at $\\epsilon = 0$",
            "total variation of $G_\\mu$: $\\delta(0)$")
GAUSSIAN_V1 = _f("gaussian-plrv-v1", "v_1", f"{PAPER}, eq. (9); {_MOMENT}", "KL divergence of $G_\\mu$")
GAUSSIAN_V2 = _f("gaussian-plrv-v2", "v_2", f"{PAPER}, eq. (10); {_MOMENT}")
GAUSSIAN_V3 = _f("gaussian-plrv-v3", "v_3", f"{PAPER}, eq. (11); {_MOMENT}")
GAUSSIAN_V4 = _f("gaussian-plrv-v4", "v_4", f"{PAPER}, eq. (12); {_MOMENT}: $E|X|^3$, $X \\sim N(-\\mu^2/2, \\mu^2)$")
GAUSSIAN_ETA = _f("gaussian-plrv-eta", r"\eta", f"{PAPER}, eq. (8); {_MOMENT}")
LAPLACE_V1 = _f("laplace-plrv-v1", "v_1", f"{PAPER}, eq. (9); {_MOMENT}")
LAPLACE_V2 = _f("laplace-plrv-v2", "v_2", f"{PAPER}, eq. (10); {_MOMENT}")
RR_V1 = _f("rr-plrv-v1", "v_1", f"{PAPER}, eq. (9); {_MOMENT}: $X = \\pm\\epsilon$")
RR_V2 = _f("rr-plrv-v2", "v_2", f"{PAPER}, eq. (10); {_MOMENT}: $X = \\pm\\epsilon$")
RR_V3 = _f("rr-plrv-v3", "v_3", f"{PAPER}, eq. (11); {_MOMENT}: $X = \\pm\\epsilon$")
RR_V4 = _f("rr-plrv-v4", "v_4", f"{PAPER}, eq. (12); {_MOMENT}: $|X| = \\epsilon$")
RR_ETA = _f("rr-plrv-eta", r"\eta", f"{PAPER}, eq. (8); {_MOMENT}: $X = \\pm\\epsilon$")
BERRY_ESSEEN_GAMMA = _f("berry-esseen-gamma", r"\gamma", f"{PAPER}, eq. (85); Dong, Roth, Su (2022), Theorem 5",
                        "Berry-Esseen error of the $N$-fold composition (needs a symmetric $f$ and $\\gamma < 1/2$)")
THEOREM3_GENERALISED = _f("theorem3-generalised", r"\Delta(\mathcal M^{\otimes N}\|\tilde{\mathcal M}^{\otimes N_2})",
                          f"derived here (the proof of {PAPER}, Theorem 3, with delta-divergence-gaussian for the "
                          "Gaussian surrogates: no precondition)",
                          "upper bound: $\\gamma + \\tilde\\gamma$ + $\\Delta$ between the Gaussian surrogates", kind=Kind.UPPER)


# ------------------------------------------------------------------------------- evaluation
def dominates(first: tuple, second: tuple) -> bool:
    """True when the first mechanism certainly Blackwell-dominates the second (is less private
    everywhere: Delta(first || second) = 0), from their family keys alone.

    Keys: ``("gaussian", mu, T)``, ``("laplace", eps, T)``, ``("rr", eps, k, T)``,
    ``("sgm", sigma, p, T)``, ``("sgm_sym", sigma, p, T)``, ``("pp",)``, ``("bnp",)``. The orders used: Lemma 2 (M_BNP >= M >=
    M_PP); G_mu^T = G_{mu sqrt T} and Lemma B.2 (compared exactly, mu^2 T as rationals); one
    step of the Laplace mechanism, of k-ary randomized response (one k) and of the subsampled
    Gaussian (sigma smaller and p larger: the other pair is a post-processing of it, by adding
    noise or by replacing the sample with a fresh N(0, sigma^2) draw) are ordered, composition
    preserves the order (Torgersen) and more steps are less private (f (x) g <= f); so the
    first dominates when every parameter is on the less private side. Across families: the
    Gaussian and binary randomized response against one step of the Laplace mechanism
    (:func:`_dominates_across`).
    """
    from fractions import Fraction

    if first[0] == "bnp" or second[0] == "pp":
        return True
    if first[0] == "sgm_sym" and second[0] == "sgm":
        # C(f) <= f and C(f) <= f^-1 per step, so C(f)^N <= min(f^N, (f^-1)^N)**: the per-step
        # symmetrisation dominates the add/remove one
        return first[1] <= second[1] and first[2] >= second[2] and first[3] >= second[3]
    if first[0] != second[0]:
        return _dominates_across(first, second)
    fam = first[0]
    if fam == "gaussian":
        return Fraction(first[1]) ** 2 * int(first[2]) >= Fraction(second[1]) ** 2 * int(second[2])
    if fam == "laplace":
        return first[1] >= second[1] and first[2] >= second[2]
    if fam == "rr":
        return int(first[2]) == int(second[2]) and first[1] >= second[1] and first[3] >= second[3]
    if fam in ("sgm", "sgm_sym"):  # the symmetrisations are monotone in the curve they symmetrise
        return first[1] <= second[1] and first[2] >= second[2] and first[3] >= second[3]
    return False


#: relative move of each parameter towards failing a catalogue condition before it is evaluated
#: at 50 digits (:func:`_dominates_across`): far above the evaluation's error
CONDITION_MARGIN = 1e-12


def _dominates_across(first: tuple, second: tuple) -> bool:
    """True when a catalogue condition of :mod:`dptheory.comparison.conditions` certifies that the
    first mechanism dominates the second, for two families whose order no numerical route can
    certify (the second is smooth): G_mu^T ⪰ Lap_eps (blackwell-gaussian-laplace, on
    G_mu^T = G_{mu sqrt(T)}) and RR_eps1 ⪰ Lap_eps2 (blackwell-rr-laplace), each evaluated by its
    generated mpmath function at 50 digits. eps1 >= eps2 compares two floats exactly; the
    Gaussian condition is transcendental but monotone in each parameter, so it is evaluated with
    each parameter moved by :data:`CONDITION_MARGIN` (relative) to the side where it is harder to
    meet: if it holds there, it holds. Otherwise False (not decided)."""
    import mpmath

    from . import conditions

    if second[0] != "laplace" or second[2] != 1:
        return False
    if first[0] == "gaussian":
        harder = 1 + CONDITION_MARGIN
        with mpmath.workdps(50):
            mu = mpmath.mpf(first[1]) * mpmath.sqrt(int(first[2])) / harder
            eps = mpmath.mpf(second[1]) * harder
        return conditions.BLACKWELL_GAUSSIAN_LAPLACE.mpmath(50)(mu, eps)
    if first[0] == "rr" and int(first[2]) == 2 and first[3] == 1:
        return conditions.BLACKWELL_RR_LAPLACE.mpmath(50)(first[1], second[1])
    return False


def _closed_form_args(first: tuple, second: tuple):
    """The Formula and its mpmath arguments for a pair with a closed form, else None."""
    import mpmath

    fam = first[0]
    if fam != second[0]:
        return None
    if fam == "gaussian":
        return DELTA_GAUSSIAN, (lambda: (mpmath.mpf(first[1]) * mpmath.sqrt(first[2]),
                                         mpmath.mpf(second[1]) * mpmath.sqrt(second[2])))
    if fam == "laplace" and first[2] == 1 and second[2] == 1:
        return DELTA_LAPLACE, (lambda: (mpmath.mpf(first[1]), mpmath.mpf(second[1])))
    if fam == "rr" and int(first[2]) == int(second[2]) and first[3] == 1 and second[3] == 1:
        return DELTA_RR_K, (lambda: (mpmath.mpf(first[1]), mpmath.mpf(second[1]), int(first[2])))
    return None


def _minimax_bayes_error(key):
    """R_min(1/2) = alpha* of a symmetric mechanism of the family ``key`` (Lemma 4), as an mpmath
    thunk generated from its Bayes error Formula, or None."""
    import mpmath

    from ..tradeoff import GAUSSIAN_BAYES_ERROR

    half = lambda: mpmath.mpf(1) / 2  # noqa: E731
    if key[0] == "gaussian":
        fn = GAUSSIAN_BAYES_ERROR.mpmath(None)
        return lambda: fn(mpmath.mpf(key[1]) * mpmath.sqrt(key[2]), half())
    if key[0] == "laplace" and key[2] == 1:
        fn = LAPLACE_BAYES_ERROR.mpmath(None)
        return lambda: fn(mpmath.mpf(key[1]), half())
    if key[0] == "rr" and int(key[2]) == 2 and key[3] == 1:
        fn = RR_BAYES_ERROR.mpmath(None)
        return lambda: fn(mpmath.mpf(key[1]), half())
    return None


def _against_binary_rr(first: tuple, second: tuple):
    """Delta(M || RR_eps) = max{0, R*_M - 1/(1 + e^eps)} for a symmetric M (derived in
    derivations/delta_divergence_rr.py: R_RR = min(pi, 1 - pi, 1/(1 + e^eps)) and R_M <=
    min(pi, 1 - pi), so R_M - R_RR is positive only where R_RR is flat, and largest where R_M is,
    at pi = 1/2, Lemma 4). Gaussian or Laplace M against binary randomized response; the sign of
    R*_M - R*_RR is resolved at 30 digits (None if they agree to 30 digits)."""
    import mpmath

    from .. import rounding
    from ..precision import mp_adaptive
    from ..results import Result

    if not (second[0] == "rr" and int(second[2]) == 2 and second[3] == 1) or first[0] not in ("gaussian", "laplace"):
        return None
    r_first, r_rr = _minimax_bayes_error(first), _minimax_bayes_error(second)
    if r_first is None:
        return None
    diff = mp_adaptive(lambda: r_first() - r_rr(), 30)
    params = {"prior": 0.5, "epsilon": 0.0}
    source = "derived here (derivations/delta_divergence_rr.py); Kaissis et al. (2024), Corollary 1, Lemma 4"
    if diff < 0:
        return Result("delta-divergence", 0.0, 0.0, Kind.EXACT, Status.PROVEN, "delta-divergence-exact-zero", source,
                      r"0 exactly: $R^*_\mathcal{M} \leq 1/(1 + e^\epsilon)$, so $R_\mathcal{M} \leq R_\mathrm{RR}$ everywhere", params=params)
    if diff == 0:
        return None
    with mpmath.workdps(40):
        log_v = mpmath.log(diff)
        slack = mpmath.mpf(10) ** -25 * (1 + abs(log_v))
        lo, hi = rounding.mp_down(log_v - slack), rounding.mp_up(log_v + slack)
    return Result.from_log("delta-divergence", lo, hi, kind=Kind.EXACT, status=Status.PROVEN,
                           method="delta-divergence-closed-form", source=source,
                           note=r"closed form $\max\{0, R^*_\mathcal{M} - 1/(1 + e^\epsilon)\}$", params=params)


def family_delta(first: tuple, second: tuple):
    """Delta(M || M~) decided from the mechanisms' family keys (see :func:`dominates`), as a
    certified Result; None when the keys do not decide it.

    0 exactly when the first dominates; otherwise, within the Gaussian family, one step of the
    Laplace mechanism, or one step of k-ary randomized response (one k), the closed form
    (totally ordered one-parameter families: not dominating means strictly positive), generated
    from its Formula with mpmath until two working precisions agree to 30 digits
    (:func:`dptheory.precision.mp_adaptive`), rounded outwards from its logarithm: values far
    below the float range stay positive (``log_lower``).
    """
    import mpmath

    from .. import rounding
    from ..precision import mp_adaptive
    from ..results import Result

    params = {"prior": 0.5, "epsilon": 0.0}
    if dominates(first, second):
        if first[0] == "bnp" or second[0] == "pp":
            why, source = "Lemma 2", "Kaissis et al. (2024), Theorem 1, Lemma 2"
        elif first[0] != second[0]:
            name = "blackwell-gaussian-laplace" if first[0] == "gaussian" else "blackwell-rr-laplace"
            why = f"the condition {name} holds" + (" (with a margin)" if first[0] == "gaussian" else "")
            source = f"Kaissis et al. (2024), Theorem 1; {name}, derived here (derivations/blackwell_dominance.py)"
        else:
            why = "the first is on the less private side of every parameter of an ordered family"
            source = "Kaissis et al. (2024), Theorem 1, Lemma 2, Lemma B.2"
        return Result("delta-divergence", 0.0, 0.0, Kind.EXACT, Status.PROVEN, "delta-divergence-exact-zero",
                      source, f"0 exactly: {why}", params=params)
    against_rr = _against_binary_rr(first, second)
    if against_rr is not None:
        return against_rr
    found = _closed_form_args(first, second)
    if found is None:
        return None
    formula, args = found
    fn = formula.mpmath(None)
    value = mp_adaptive(lambda: fn(*args()), 30)  # 30 digits that two working precisions agree on
    with mpmath.workdps(40):
        if not value > 0:
            raise ArithmeticError(f"{formula.name}{first, second}: not resolved")
        log_v = mpmath.log(value)
        slack = mpmath.mpf(10) ** -25 * (1 + abs(log_v))
        lo, hi = rounding.mp_down(log_v - slack), rounding.mp_up(log_v + slack)
    return Result.from_log("delta-divergence", lo, hi, kind=Kind.EXACT, status=Status.PROVEN,
                           method="delta-divergence-closed-form", source=formula.source,
                           note=f"closed form {formula.name}", params=params)
