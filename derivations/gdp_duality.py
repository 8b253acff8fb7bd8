"""Gaussian DP: the duality between the trade-off function G_mu and the privacy profile delta_mu,
and the Renyi divergence of mu-GDP (Dong, Roth, Su 2022, Definition 2.4, Proposition 2.12, Corollary 2.13;
Mironov 2017, Proposition 7).

1. Profile from trade-off: delta(eps) = sup_alpha 1 - G_mu(alpha) - e^eps alpha (the hockey-stick
   divergence of the pair). With alpha = Phi(-z) the supremum is at z* = eps/mu + mu/2 (stationary
   point, and G_mu is convex so it is the maximum); its value is the toolkit's gdp-delta.
2. Trade-off from profile: G_mu is the upper envelope over eps of the (eps, delta(eps))-DP
   trade-off lines 1 - delta(eps) - e^eps alpha (the middle branch of dp-tradeoff): the line
   touches G_mu at alpha = Phi(-eps/mu - mu/2) and its eps-derivative vanishes there, because
   delta'(eps) = -e^eps Phi(-eps/mu - mu/2).
3. delta(0) = 2 Phi(mu/2) - 1 (the total variation of N(0,1) and N(mu,1)), delta -> 0 as eps -> oo.
4. The fixed point of G_mu is Phi(-mu/2) (gdp-fixed-point).
5. Renyi: E_{N(0,1)}[(phi(z - mu)/phi(z))^lam] = e^{lam (lam - 1) mu^2 / 2} by completing the
   square, so D_lam = lam mu^2 / 2 (gdp-renyi, and the conversion gdp-to-rdp).

Run: python derivations/gdp_duality.py   (prints LaTeX and one "check ...: ok" line per check)
"""

import sympy as sp

from _derivation import Checks, erfcinv_of_erfc, is_zero, show_expr, show_formula
from dptheory.profile import GDP_DELTA
from dptheory.rdp import GDP_RDP
from dptheory.symbols import Phi, alpha, eps, lam, mu
from dptheory.tradeoff import DP_TRADEOFF, GAUSSIAN_FIXED_POINT, GAUSSIAN_RENYI, GAUSSIAN_TRADEOFF

z = sp.Symbol("z", real=True)
mu_pos = sp.Symbol("mu", positive=True)
Z_STAR = eps / mu + mu / 2  # alpha* = Phi(-z*)


def tradeoff_in_z(tradeoff=None):
    """G_mu(Phi(-z)) and its slope dG/dalpha at alpha = Phi(-z)."""
    f = GAUSSIAN_TRADEOFF.expr if tradeoff is None else tradeoff
    a = Phi(-z)
    fz = erfcinv_of_erfc(f.subs(alpha, a))
    slope = sp.simplify(sp.diff(fz, z) / sp.diff(a, z))
    return fz, slope


def check_stationary_point(tradeoff=None) -> bool:
    """d/dalpha [1 - G(alpha) - e^eps alpha] = 0 at alpha = Phi(-z*)."""
    _, slope = tradeoff_in_z(tradeoff)
    return is_zero((-slope - sp.exp(eps)).subs(z, Z_STAR))


def check_convex(tradeoff=None) -> bool:
    """G'' > 0: the stationary point is the supremum."""
    _, slope = tradeoff_in_z(tradeoff)
    second = sp.simplify(sp.diff(slope, z) / sp.diff(Phi(-z), z)).subs(mu, mu_pos)
    return bool(second.is_positive)


def check_profile_from_tradeoff(tradeoff=None, profile=None) -> bool:
    """sup_alpha 1 - G_mu(alpha) - e^eps alpha equals gdp-delta."""
    profile = GDP_DELTA.expr if profile is None else profile
    fz, _ = tradeoff_in_z(tradeoff)
    value = (1 - fz - sp.exp(eps) * Phi(-z)).subs(z, Z_STAR)
    return is_zero(value - profile)


def check_profile_slope(profile=None) -> bool:
    """delta'(eps) = -e^eps Phi(-eps/mu - mu/2) (the envelope condition of item 2)."""
    d = GDP_DELTA.expr if profile is None else profile
    return is_zero(sp.diff(d, eps) + sp.exp(eps) * Phi(-Z_STAR))


def check_envelope(tradeoff=None, profile=None) -> bool:
    """The (eps, delta(eps)) line of dp-tradeoff touches G_mu at alpha = Phi(-z*)."""
    f = GAUSSIAN_TRADEOFF.expr if tradeoff is None else tradeoff
    d = GDP_DELTA.expr if profile is None else profile
    line = [arg for arg in DP_TRADEOFF.expr.args if arg.has(sp.exp(DP_TRADEOFF.params[0])) and not arg.has(sp.exp(-DP_TRADEOFF.params[0]))]
    if len(line) != 1:
        return False
    e_sym, d_sym, a_sym = DP_TRADEOFF.params
    a_star = Phi(-Z_STAR)
    touching = line[0].subs({e_sym: eps, d_sym: d, a_sym: a_star}) - erfcinv_of_erfc(f.subs(alpha, a_star))
    return is_zero(touching)


def check_total_variation(profile=None) -> bool:
    d = GDP_DELTA.expr if profile is None else profile
    return is_zero(d.subs(eps, 0) - (2 * Phi(mu / 2) - 1)) and sp.limit(d.subs(mu, mu_pos), eps, sp.oo) == 0


def check_fixed_point(tradeoff=None, fixed=None) -> bool:
    f = GAUSSIAN_TRADEOFF.expr if tradeoff is None else tradeoff
    a_star = GAUSSIAN_FIXED_POINT.expr if fixed is None else fixed
    return is_zero(erfcinv_of_erfc(f.subs(alpha, a_star)) - a_star) and is_zero(a_star - Phi(-mu / 2))


def renyi_of_gaussians():
    """(lam - 1) D_lam(N(mu,1) || N(0,1)) by completing the square: the exponent of
    phi(z - mu)^lam phi(z)^(1 - lam) is -(z - lam mu)^2/2 + lam (lam - 1) mu^2/2, and the
    remaining Gaussian integrates to 1."""
    exponent = -lam * (z - mu) ** 2 / 2 - (1 - lam) * z**2 / 2
    shift = lam * mu
    constant = sp.expand(exponent + (z - shift) ** 2 / 2)
    if constant.has(z):
        return None
    mass = sp.integrate(sp.exp(-(z - sp.Symbol("c", real=True)) ** 2 / 2) / sp.sqrt(2 * sp.pi), (z, -sp.oo, sp.oo))
    return sp.factor(constant + sp.log(mass))


def check_renyi(renyi=None) -> bool:
    """gdp-renyi and gdp-to-rdp equal log E[(phi(z-mu)/phi(z))^lam] / (lam - 1)."""
    rho = GAUSSIAN_RENYI.expr if renyi is None else renyi
    moment = renyi_of_gaussians()
    rho_rdp = GDP_RDP.expr.subs(GDP_RDP.params[1], lam) if renyi is None else renyi
    return moment is not None and is_zero(moment / (lam - 1) - rho) and is_zero(moment / (lam - 1) - rho_rdp)


def main() -> None:
    check = Checks()
    print("Gaussian DP: trade-off function and privacy profile, and the Renyi divergence of $\\mu$-GDP\n")
    for f in (GAUSSIAN_TRADEOFF, GDP_DELTA, DP_TRADEOFF, GAUSSIAN_FIXED_POINT, GAUSSIAN_RENYI, GDP_RDP):
        show_formula(f)
    fz, slope = tradeoff_in_z()
    print("\n1. The profile from the trade-off function, with $\\alpha = \\Phi(-z)$")
    show_expr(r"G_\mu(\Phi(-z))", fz)
    show_expr(r"G_\mu'(\Phi(-z))", slope.replace(lambda e: isinstance(e, sp.exp), lambda e: sp.exp(sp.expand(e.args[0]))))
    show_expr(r"z^*", Z_STAR)
    check("stationary-point", check_stationary_point())
    check("tradeoff-convex", check_convex())
    show_expr(r"\delta_\mu(\epsilon) = \sup_{\alpha} \left(1 - G_\mu(\alpha) - e^{\epsilon} \alpha\right)",
              GDP_DELTA.expr)
    check("profile-from-tradeoff", check_profile_from_tradeoff())
    print("\n2. The trade-off function as the envelope of the $(\\epsilon, \\delta_\\mu(\\epsilon))$ lines")
    show_expr(r"\delta_\mu'(\epsilon)", -sp.exp(eps) * Phi(-Z_STAR))
    check("profile-slope", check_profile_slope())
    check("tradeoff-is-envelope", check_envelope())
    print("\n3. The ends of the profile")
    show_expr(r"\delta_\mu(0)", 2 * Phi(mu / 2) - 1)
    show_expr(r"\lim_{\epsilon \to \infty} \delta_\mu(\epsilon)", sp.S.Zero)
    check("profile-at-zero-and-infinity", check_total_variation())
    print("\n4. The fixed point of $G_\\mu$")
    show_expr(r"\alpha^*", Phi(-mu / 2))
    check("fixed-point", check_fixed_point())
    print("\n5. The Renyi divergence, by completing the square")
    moment = renyi_of_gaussians()
    show_expr(r"\log \mathbb{E}_{z \sim \mathcal N(0,1)}\left[\left(\frac{\varphi(z-\mu)}{\varphi(z)}\right)^{\lambda}\right]",
              moment)
    show_expr(r"D_\lambda(\mathcal N(\mu,1)\|\mathcal N(0,1))", sp.factor(moment / (lam - 1)))
    check("renyi", check_renyi())
    check.finish()


if __name__ == "__main__":
    main()
