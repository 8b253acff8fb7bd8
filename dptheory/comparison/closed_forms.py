"""Closed forms of mechanism comparison (Kaissis et al. 2024 and the digest's derivations), as
:class:`~dptheory.formula.Formula` objects; derivations/delta_divergence_gaussian.py derives the
Gaussian ones with sympy.

Delta within one family (digest §5.3-5.4, [D], checked here against the certified numerics):

* Gaussian: Delta(G_mu1 || G_mu2) = max{0, Phi(-mu1/2) - Phi(-mu2/2)} (the maximum of
  R_mu1 - R_mu2 is at pi = 1/2, where R = alpha* = Phi(-mu/2));
* Laplace: max{0, (e^{-eps1/2} - e^{-eps2/2})/2};
* binary randomized response: max{0, 1/(1 + e^eps1) - 1/(1 + e^eps2)}.

PLRV moments (digest §1.9 [D]; v1 = KL(P||Q), v2 = E X^2, v3 = E|X - E X|^3, v4 = E|X|^3):
Gaussian (X ~ N(-mu^2/2, mu^2)), Laplace (v1, v2), binary randomized response (all four).
Theorem 3's Berry-Esseen gamma (85) and bound (14), and the digest's precondition-free form.
"""

from __future__ import annotations

from ..formula import Formula, Parts, register
from ..results import Kind, Status

DIGEST = "Kaissis et al. (2024), digest seed-003"


def _closed_forms() -> dict[str, Parts]:
    import sympy as sp

    from ..symbols import Phi, mu, pi as prior

    mu1 = sp.Symbol("mu_1", nonnegative=True)
    mu2 = sp.Symbol("mu_2", nonnegative=True)
    e1 = sp.Symbol("epsilon_1", nonnegative=True)
    e2 = sp.Symbol("epsilon_2", nonnegative=True)
    epos = sp.Symbol("epsilon", nonnegative=True)  # a pure-DP epsilon (RR, Laplace): >= 0
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


def _f(name, lhs, source, description="", kind=Kind.EXACT, status=Status.PROVEN, erratum=None):
    return register(Formula(name=name, build=_closed_forms, kind=kind, status=status, source=source, lhs=lhs,
                            description=description, erratum=erratum))


DELTA_GAUSSIAN = _f("delta-divergence-gaussian", r"\Delta(G_{\mu_1}\|G_{\mu_2})", f"{DIGEST} §5.3 [D]",
                    "Delta-divergence between two Gaussian mechanisms")
DELTA_LAPLACE = _f("delta-divergence-laplace", r"\Delta(\mathrm{Lap}_{\epsilon_1}\|\mathrm{Lap}_{\epsilon_2})",
                   f"{DIGEST} §5.4 [D]", "Delta-divergence between two Laplace mechanisms")
DELTA_RR = _f("delta-divergence-rr", r"\Delta(\mathrm{RR}_{\epsilon_1}\|\mathrm{RR}_{\epsilon_2})",
              f"{DIGEST} §5.4 [D]", "Delta-divergence between two binary randomized responses")
LAPLACE_BAYES_ERROR = _f("laplace-bayes-error", r"R_{\min}(\pi)", f"{DIGEST} §1.11 [D]",
                         "minimum Bayes error of the Laplace mechanism (mu = sensitivity / scale)")
RR_BAYES_ERROR = _f("rr-bayes-error", r"R_{\min}(\pi)", f"{DIGEST} §1.11 [D] (f_{{eps,0}})",
                    "minimum Bayes error of binary randomized response")
GDP_TV = _f("gdp-total-variation", r"\mathrm{TV}", f"{DIGEST} §1.10 [D]", "total variation of G_mu: delta(0)")
GAUSSIAN_V1 = _f("gaussian-plrv-v1", "v_1", "Kaissis et al. (2024), eq. (9); digest §1.9 [D]", "KL of G_mu")
GAUSSIAN_V2 = _f("gaussian-plrv-v2", "v_2", "Kaissis et al. (2024), eq. (10); digest §1.9 [D]")
GAUSSIAN_V3 = _f("gaussian-plrv-v3", "v_3", "Kaissis et al. (2024), eq. (11); digest §1.9 [D]")
GAUSSIAN_V4 = _f("gaussian-plrv-v4", "v_4", "Kaissis et al. (2024), eq. (12); third absolute moment of N(-mu^2/2, mu^2)")
GAUSSIAN_ETA = _f("gaussian-plrv-eta", r"\eta", "Kaissis et al. (2024), eq. (8); digest §1.9 [D]")
LAPLACE_V1 = _f("laplace-plrv-v1", "v_1", "Kaissis et al. (2024), eq. (9); digest §1.9 [D]")
LAPLACE_V2 = _f("laplace-plrv-v2", "v_2", "Kaissis et al. (2024), eq. (10); digest §1.9 [D]")
RR_V1 = _f("rr-plrv-v1", "v_1", "Kaissis et al. (2024), eq. (9); digest §1.9 [D]")
RR_V2 = _f("rr-plrv-v2", "v_2", "Kaissis et al. (2024), eq. (10); digest §1.9 [D]")
RR_V3 = _f("rr-plrv-v3", "v_3", "Kaissis et al. (2024), eq. (11); derived from X = +-eps")
RR_V4 = _f("rr-plrv-v4", "v_4", "Kaissis et al. (2024), eq. (12); |X| = eps")
RR_ETA = _f("rr-plrv-eta", r"\eta", "Kaissis et al. (2024), eq. (8); digest §1.9 [D]")
BERRY_ESSEEN_GAMMA = _f("berry-esseen-gamma", r"\gamma", "Kaissis et al. (2024), eq. (85); Dong, Roth, Su (2022), Thm 5",
                        "Berry-Esseen error of the N-fold composition (needs symmetric f and gamma < 1/2)")
THEOREM3_GENERALISED = _f("theorem3-generalised", r"\Delta(\mathcal M^{\otimes N}\|\tilde{\mathcal M}^{\otimes N_2})",
                          f"{DIGEST} §2 Theorem 3 [D] (precondition-free)",
                          "upper bound: gamma + gamma~ + Delta between the Gaussian surrogates", kind=Kind.UPPER)
