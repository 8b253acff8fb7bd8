"""Blackwell dominance (Kaissis et al. 2024, Theorem 1) as closed-form conditions: the toolkit's
formulas of dptheory.comparison.conditions (blackwell-*), each derived with sympy from the
toolkit's own Formulas and checked against the certified numerical verdict of
dptheory.comparison.compare (on curves stripped of every closed form: curves.numerical).

M ⪰ M~ (M Blackwell-dominates M~: M is less private) iff f <= f~ pointwise (clause (1)) iff
delta(eps) >= delta~(eps) for every eps (clause (2)) iff R(pi) <= R~(pi) for every prior
(clause (3)) iff Delta(M || M~) = 0 (Corollary 1).

1. Theorem 1's clauses: (2) and (3) are the same statement, R(pi) = (1 - pi)(1 - delta(logit pi))
   (checked on the toolkit's Gaussian, Laplace and randomized-response formulas); at the witness
   that compare returns for a positive Delta every clause fails, and for a dominating pair every
   clause holds on a grid.
2. Gaussian (Lemma B.2): d/dmu G_mu(alpha) = -phi(Phi^{-1}(1 - alpha) - mu) < 0 (eq. (65)), so
   mu1 >= mu2 gives G_mu1 <= G_mu2; mu1 < mu2 gives R_mu1(1/2) = Phi(-mu1/2) > R_mu2(1/2). The
   closed form delta-divergence-gaussian is 0 exactly where mu1 >= mu2; composition
   G_mu^T = G_{sqrt(T) mu} gives T1 mu1^2 >= T2 mu2^2.
3. Laplace and binary randomized response: their Bayes errors min{pi, 1 - pi, c(eps, pi)} are
   non-increasing in eps at every prior and strictly decreasing at pi = 1/2: eps1 >= eps2.
4. k-ary randomized response: R = pi up to the kink 1/(1 + e^eps), then linear (slope < 1) up to
   alpha* = k/(2(e^eps + k - 1)) at pi = 1/2; R1 - R2 is linear between the kinks, so R1 <= R2
   iff it is at the kinks: eps1 >= eps2 (the kinks) and alpha*_1 <= alpha*_2.
5. Against binary randomized response: R_RR = min{pi, 1 - pi, 1/(1 + e^eps)} and R_M <=
   min{pi, 1 - pi} (Lemma 2), so a symmetric M dominates RR_eps iff max R_M = R_M(1/2) = alpha*_M
   (Lemma 4) is at most 1/(1 + e^eps) (Gaussian: Phi(-mu/2); Laplace: e^{-eps/2}/2). RR_eps
   has the trade-off function f_{eps,0}, so RR_eps dominates M iff M is eps-DP (Dong, Roth, Su
   2022, Proposition 2.5): delta_M(eps) = 0 (Laplace: eps >= its eps; never a Gaussian, mu > 0).
6. Gaussian against Laplace: R_Lap = min{pi, 1 - pi, e^{-eps/2} sqrt(pi (1 - pi))}, so
   G_mu ⪰ Lap_eps iff h(l) = R_mu(pi)/sqrt(pi (1 - pi)) <= e^{-eps/2} for all l = logit(pi).
   h(l) = e^{-mu^2/8} E e^{-|W - l|/2}, W ~ N(0, mu^2), is even and decreasing for l > 0 (its
   derivative pairs W = l + t with W = l - t, whose density is larger), so max h = h(0) =
   2 Phi(-mu/2): the condition is Phi(-mu/2) <= e^{-eps/2}/2. Laplace never dominates G_mu,
   mu > 0: R_Lap(pi) = pi near 0, while pi - R_mu(pi) = (1 - pi)(e^l Phi(b + mu) - Phi(b)) > 0.
7. Every condition against compare's numerical verdict on a grid of parameter pairs on both
   sides of its boundary, at relative distances 1e-6 to 1.

Run: python derivations/blackwell_dominance.py   (prints LaTeX and one "check ...: ok" line per check)
"""

import math

import mpmath
import numpy as np
import sympy as sp

from _derivation import Checks, is_zero, show_expr, show_formula
from dptheory import special, tradeoff
from dptheory.comparison import bayes_error as be
from dptheory.comparison import closed_forms as cf
from dptheory.comparison import compare, conditions as C, parse_mechanism
from dptheory.comparison.blackwell import certainly_positive
from dptheory.comparison.curves import numerical
from dptheory.mechanisms import RandomizedResponse
from dptheory.symbols import Phi, Phi_inv

pi = sp.Symbol("pi", positive=True)
lam = sp.Symbol("lambda", real=True)
mu_s = sp.Symbol("mu", positive=True)
eps_s = sp.Symbol("epsilon", positive=True)
alpha_s = sp.Symbol("alpha", positive=True)
t_s = sp.Symbol("t", positive=True)
w_s = sp.Symbol("w", real=True)

#: Delta(first || second) certified in [0, at most this] is "0" for a condition that holds (the
#: numerical route encloses the exact 0 of two equal smooth curves in [0, up to about 3e-8], its
#: grid cap); what the check rests on is that the interval reaches 0
RESOLUTION = 1e-6


def zero_at(expr, points, digits=30) -> bool:
    """expr vanishes: simplification, else evaluation at sample points with mpmath at ``digits``
    digits (the toolkit's mpmath functions: erfcinv included)."""
    if is_zero(expr):
        return True
    ok = True
    for pt in points:
        names = sorted(pt, key=str)
        fn = sp.lambdify(names, expr, modules=special.MPMATH_MODULES)
        with mpmath.workdps(digits):
            ok = ok and abs(fn(*[mp(pt[n]) for n in names])) < mpmath.mpf(10) ** (5 - digits)
    return ok


def mp(x):
    """An exact rational (sympy or int) as an mpmath number at the working precision."""
    r = sp.Rational(x)
    return mpmath.mpf(r.p) / r.q


def phi(x):
    return sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi)


def sides(condition):
    """(lhs, rhs) of a one-relational condition, as the smaller and the larger side."""
    if isinstance(condition, (sp.GreaterThan, sp.StrictGreaterThan)):
        return condition.rhs, condition.lhs
    return condition.lhs, condition.rhs


# ------------------------------------------------------------------ the numerical verdict
def numeric(text: str):
    """The certified curves of a mechanism string, stripped of every closed form."""
    return numerical(parse_mechanism(text).curves())


def verdict_agrees(holds: bool, report) -> bool:
    """A condition against compare's certified Delta(first || second): where it holds, Delta = 0,
    so the interval must reach 0 and be narrow; where it fails, Delta > 0 must be certified (the
    pairs are chosen far enough from the boundary for the numerics to resolve it)."""
    fw = report.forward
    if holds:
        return not certainly_positive(fw) and fw.upper <= RESOLUTION
    return certainly_positive(fw)


#: pairs checked against compare so far (for the summary)
COMPARED = []


def check_against_compare(label, condition, pairs) -> bool:
    """``pairs``: (first mechanism, second mechanism, arguments of ``condition``)."""
    COMPARED.extend(pairs)
    ok, held = True, 0
    for first, second, args in pairs:
        holds = condition(*args)
        held += holds
        report = compare(numeric(first), numeric(second))
        agree = verdict_agrees(holds, report)
        if not agree:
            print(f"   DISAGREE {first} vs {second}: condition {holds}, $\\Delta \\in "
                  f"[{report.forward.lower:.3g}, {report.forward.upper:.3g}]$")
        ok = ok and agree
    print(f"   {label}: {len(pairs)} pairs ({held} dominating), condition = compare's numerical verdict: {ok}")
    return ok


def around(value, offsets=(-0.3, -1e-3, -1e-6, 0.0, 1e-6, 1e-3, 0.3)):
    """Parameters at relative distances from ``value``: on the boundary (0.0) only where it is
    exactly representable (equal parameters of one family); :data:`OFF_BOUNDARY` otherwise."""
    return [value * (1 + o) for o in offsets]


#: relative distances from a boundary computed in floating point (Phi^{-1}, log): both sides only
OFF_BOUNDARY = (-0.3, -1e-3, -1e-6, 1e-6, 1e-3, 0.3)


# ------------------------------------------------------------------ 1. Theorem 1's clauses
def check_profile_bayes_gaussian() -> bool:
    """R_mu(pi) = (1 - pi)(1 - delta_mu(logit pi)): the toolkit's gdp-bayes-error and gdp-delta."""
    from dptheory.profile import GDP_DELTA

    r = tradeoff.GAUSSIAN_BAYES_ERROR
    m, prior = r.params
    e_sym = [p for p in GDP_DELTA.params if p.name.startswith("epsilon")][0]
    mu_sym = [p for p in GDP_DELTA.params if p.name == "mu"][0]
    p_of_l = sp.exp(lam) / (1 + sp.exp(lam))
    lhs = r.expr.subs({m: mu_s, prior: p_of_l})
    rhs = (1 - p_of_l) * (1 - GDP_DELTA.expr.subs({mu_sym: mu_s, e_sym: lam}))
    pts = [{mu_s: sp.Rational(7, 5), lam: sp.Rational(-3, 4)}, {mu_s: sp.Rational(1, 3), lam: 2}]
    return zero_at(sp.expand_log(lhs - rhs, force=True), pts)


def check_profile_bayes_numeric() -> bool:
    """The same identity for the Laplace and randomized-response curves, at sample priors
    (their profiles and Bayes errors computed by the toolkit independently)."""
    ok = True
    priors = np.array([0.05, 0.2, 0.37, 0.5, 0.71, 0.93])
    eps = np.log(priors) - np.log1p(-priors)
    for curve in (tradeoff.laplace(0.8), RandomizedResponse(1.3, 3).tradeoff(), tradeoff.gaussian(0.6)):
        r = np.asarray(curve.bayes_error(priors), dtype=float)
        d = np.asarray(curve.delta(eps), dtype=float)
        ok = ok and bool(np.all(np.abs(r - (1 - priors) * (1 - d)) < 1e-13))
    return ok


CLAUSE_PAIRS = (("gaussian(mu=1)", "laplace(eps=1)"), ("laplace(eps=1)", "gaussian(mu=1)"),
                ("rr(eps=1, k=3)", "rr(eps=0.9)"), ("gaussian(mu=2)", "gaussian(mu=1)"),
                ("gaussian(mu=1)", "gaussian(mu=2)"), ("rr(eps=1.2)", "laplace(eps=1)"),
                ("gaussian(mu=2)", "rr(eps=1)"), ("laplace(eps=2)", "laplace(eps=0.5)"))


def check_clauses_against_compare(pairs=CLAUSE_PAIRS) -> bool:
    """For each pair: if compare certifies Delta(first || second) > 0, each clause formula fails at
    its witness (alpha for clause (1), epsilon = logit(pi) for (2), pi for (3), the certified
    Delta for Delta = 0), the curves' values there computed by the toolkit; if Delta(first ||
    second) <= RESOLUTION, each clause holds on a grid (the Bayes errors as certified
    enclosures: the lower end of R against the upper end of R~)."""
    alphas = np.linspace(0.001, 0.999, 999)
    epsilons = np.linspace(0.0, 6.0, 601)
    priors = np.linspace(0.0, 1.0, 1001)
    ok = True
    for first, second in pairs:
        a, b = parse_mechanism(first).tradeoff(), parse_mechanism(second).tradeoff()
        report = compare(numeric(first), numeric(second))
        fw = report.forward
        if certainly_positive(fw):
            w = report.dominance.witness["second_more_vulnerable"]
            x, e, p = w["alpha"], w["epsilon"], w["prior"]
            r_lo = be.enclosure(a).bounds(np.array([p]))[0][0]
            r_hi = be.enclosure(b).bounds(np.array([p]))[1][0]
            fails = (not C.BLACKWELL_TRADEOFF(float(a(x)), float(b(x)))
                     and not C.BLACKWELL_PROFILE(float(a.delta(e)), float(b.delta(e)))
                     and not C.BLACKWELL_BAYES_ERROR(r_lo, r_hi)
                     and not C.BLACKWELL_DELTA_DIVERGENCE(fw.lower))
            print(f"   {first} vs {second}: $\\Delta \\geq {fw.lower:.6g}$; every clause fails at $\\alpha = {x:.6g}$, "
                  f"$\\epsilon = {e:.6g}$, $\\pi = {p:.6g}$: {fails}")
            ok = ok and fails
        elif fw.upper <= RESOLUTION:
            r_lo = be.enclosure(a).bounds(priors)[0]
            r_hi = be.enclosure(b).bounds(priors)[1]
            holds = (bool(np.all(C.BLACKWELL_TRADEOFF(a(alphas), b(alphas))))
                     and bool(np.all(C.BLACKWELL_PROFILE(a.delta(epsilons), b.delta(epsilons))))
                     and bool(np.all(C.BLACKWELL_BAYES_ERROR(r_lo, r_hi))))
            print(f"   {first} vs {second}: $\\Delta \\leq {fw.upper:.3g}$; every clause holds on the grids: {holds}")
            ok = ok and holds
        else:
            print(f"   {first} vs {second}: not resolved, $\\Delta \\in [{fw.lower:.3g}, {fw.upper:.3g}]$")
            ok = False
    return ok


# ------------------------------------------------------------------ 2. Gaussian
def check_lemma_b2(trade=None) -> bool:
    """d/dmu G_mu(alpha) = -phi(Phi^{-1}(1 - alpha) - mu) (eq. (65)), negative, from the toolkit's
    gdp-tradeoff."""
    expr = tradeoff.GAUSSIAN_TRADEOFF.expr if trade is None else trade
    m, a = tradeoff.GAUSSIAN_TRADEOFF.params
    d = sp.diff(expr.subs({m: mu_s, a: alpha_s}), mu_s)
    claimed = -phi(Phi_inv(1 - alpha_s) - mu_s)
    pts = [{mu_s: sp.Rational(1, 2), alpha_s: sp.Rational(1, 5)}, {mu_s: 3, alpha_s: sp.Rational(7, 10)}]
    u = sp.Symbol("u", real=True)
    return zero_at(d - claimed, pts) and bool(phi(u).is_positive)


def check_gaussian_condition(formula=None) -> bool:
    """blackwell-gaussian is mu1 >= mu2, and R_mu(1/2) = Phi(-mu/2) is strictly decreasing (the
    converse: mu1 < mu2 puts R_mu1 above R_mu2 at pi = 1/2)."""
    expr = C.BLACKWELL_GAUSSIAN.expr if formula is None else formula
    m1, m2 = C.BLACKWELL_GAUSSIAN.params
    small, big = sides(expr)
    return (small == m2 and big == m1 and bool(sp.diff(Phi(-mu_s / 2), mu_s).is_negative))


def check_delta_zero_iff(delta_formula, condition, grid) -> bool:
    """The closed-form Delta is 0 exactly (mpmath, 50 digits) where the condition holds."""
    fn = delta_formula.mpmath(50)
    ok = True
    for args in grid:
        d_args, c_args = args
        zero = fn(*d_args) == 0
        if zero != condition(*c_args):
            print(f"   {delta_formula.name}{d_args}: $\\Delta = {fn(*d_args)}$ but {condition.name} is {condition(*c_args)}")
            ok = False
    print(f"   {delta_formula.name} = 0 exactly where {condition.name} holds: {len(grid)} pairs: {ok}")
    return ok


def gaussian_pairs():
    return [(f"gaussian(mu={x!r})", f"gaussian(mu={y!r})", (x, y))
            for x in (0.05, 0.7, 2.5) for y in around(x)]


def gaussian_composed_pairs():
    out = []
    for x, t1, t2 in ((0.5, 4, 1), (0.3, 10, 3), (1.2, 1, 7)):
        boundary = x * math.sqrt(t1 / t2)  # T1 x^2 = T2 y^2
        out += [(f"gaussian(mu={x!r})^{t1}", f"gaussian(mu={y!r})^{t2}", (x, t1, y, t2)) for y in around(boundary)]
    return out


# ------------------------------------------------------------------ 3. Laplace and binary RR
def check_monotone_bayes_error(bayes, condition) -> bool:
    """The Bayes error min{pi, 1 - pi, c} is non-increasing in eps at every prior (each argument
    is), strictly decreasing at pi = 1/2 for eps >= 0; the condition is eps1 >= eps2."""
    e_sym, prior = bayes.params
    q = sp.Symbol("q", positive=True)  # 1 - pi, positive inside (0, 1)
    expr = bayes.expr.subs({e_sym: eps_s, prior: pi})
    if not isinstance(expr, sp.Min):
        return False
    monotone = all(sp.simplify(sp.diff(arg, eps_s)).subs(1 - pi, q).is_nonpositive for arg in expr.args)
    half = sp.simplify(expr.subs(pi, sp.Rational(1, 2)))
    half = [a for a in (half.args if isinstance(half, sp.Min) else (half,)) if a.has(eps_s)]
    strictly = len(half) == 1 and bool(sp.simplify(sp.diff(half[0], eps_s)).is_negative)
    e1, e2 = condition.params
    small, big = sides(condition.expr)
    return monotone and strictly and small == e2 and big == e1


def one_parameter_pairs(family):
    return [(f"{family}(eps={x!r})", f"{family}(eps={y!r})", (x, y)) for x in (0.02, 0.8, 4.0) for y in around(x)]


# ------------------------------------------------------------------ 4. k-ary RR
def rr_k_pieces(k, e):
    """R of k-ary RR on pi <= 1/2: pi up to the kink, then the middle piece (from
    delta_divergence_rr.py, which derives them from the pmfs)."""
    from delta_divergence_rr import bayes_error_pieces, eps as e_rr, k as k_rr, pi as pi_rr

    low, mid = bayes_error_pieces()
    return (low.subs({k_rr: k, e_rr: e, pi_rr: pi}), mid.subs({k_rr: k, e_rr: e, pi_rr: pi}))


def check_rr_k_shape() -> bool:
    """At the kink c = 1/(1 + e^eps) the middle piece equals pi; its slope (k - 2)/(e^eps + k - 1)
    is below 1 (so R < pi beyond the kink); at pi = 1/2 it is alpha* = k/(2(e^eps + k - 1))."""
    k = sp.Symbol("k", integer=True, positive=True)
    low, mid = rr_k_pieces(k, eps_s)
    c = 1 / (1 + sp.exp(eps_s))
    slope = sp.simplify(sp.diff(mid, pi))
    below = sp.simplify(1 - slope)
    j = sp.Symbol("j", integer=True, nonnegative=True)  # k = j + 2 >= 2
    return (is_zero(low - pi) and is_zero(sp.simplify(mid.subs(pi, c) - c))
            and is_zero(below - (sp.exp(eps_s) + 1) / (sp.exp(eps_s) + k - 1))
            and bool(below.subs(k, j + 2).is_positive)
            and is_zero(mid.subs(pi, sp.Rational(1, 2)) - k / (2 * (sp.exp(eps_s) + k - 1))))


def check_rr_k_condition(formula=None) -> bool:
    """blackwell-rr-k is eps1 >= eps2 (the kinks in order: R1 = pi > R2 between them otherwise)
    and alpha*_1 <= alpha*_2 (R1 - R2 at pi = 1/2), alpha* from the pieces."""
    expr = C.BLACKWELL_RR_K.expr if formula is None else formula
    e1, e2, k1, k2 = C.BLACKWELL_RR_K.params
    if not isinstance(expr, sp.And) or len(expr.args) != 2:
        return False
    star = lambda kk, ee: rr_k_pieces(kk, ee)[1].subs(pi, sp.Rational(1, 2))  # noqa: E731
    kinks = any(sides(a) == (e2, e1) for a in expr.args)
    fixed = [a for a in expr.args if a.has(k1)]
    if len(fixed) != 1:
        return False
    small, big = sides(fixed[0])
    return kinks and is_zero(small - 2 * star(k1, e1)) and is_zero(big - 2 * star(k2, e2))


def rr_k_pairs():
    out = []
    for x, k1 in ((0.3, 3), (1.5, 5), (3.0, 2)):
        for k2 in (2, 3, 6):
            for y in around(x):
                out.append((f"rr(eps={x!r}, k={k1})", f"rr(eps={y!r}, k={k2})", (x, y, k1, k2)))
            # the fixed points' boundary k1/(e^x + k1 - 1) = k2/(e^y + k2 - 1), where it has 0 < y
            e_y = k2 * (math.exp(x) + k1 - 1) / k1 - k2 + 1
            y_star = math.log(e_y) if e_y > 1 else None
            if y_star is not None:
                for y in around(y_star, (-1e-6, 1e-6)):
                    out.append((f"rr(eps={x!r}, k={k1})", f"rr(eps={y!r}, k={k2})", (x, y, k1, k2)))
    return out


# ------------------------------------------------------------------ 5. against randomized response
def check_symmetric_rr(formula=None) -> bool:
    """blackwell-symmetric-rr is alpha* <= c with c the flat value of the toolkit's rr-bayes-error
    (its third argument): max R_M = R_M(1/2) = alpha* (Lemmas 2, 4)."""
    expr = C.BLACKWELL_SYMMETRIC_RR.expr if formula is None else formula
    star, e = C.BLACKWELL_SYMMETRIC_RR.params
    rr_e, prior = cf.RR_BAYES_ERROR.params
    flat = [a for a in cf.RR_BAYES_ERROR.expr.args if not a.has(prior)]
    small, big = sides(expr)
    return len(flat) == 1 and small == star and is_zero(big - flat[0].subs(rr_e, e))


def check_fixed_point_instances() -> bool:
    """blackwell-gaussian-rr and blackwell-laplace-rr are blackwell-symmetric-rr at alpha* =
    R(1/2) of the toolkit's gdp-bayes-error (Phi(-mu/2)) and laplace-bayes-error (e^{-eps/2}/2)."""
    star, e = C.BLACKWELL_SYMMETRIC_RR.params
    ok = True
    for cond, bayes in ((C.BLACKWELL_GAUSSIAN_RR, tradeoff.GAUSSIAN_BAYES_ERROR),
                        (C.BLACKWELL_LAPLACE_RR, cf.LAPLACE_BAYES_ERROR)):
        p1, p2 = cond.params
        b_par, b_prior = bayes.params
        if bayes is tradeoff.GAUSSIAN_BAYES_ERROR:  # a limit form at pi = 1/2 (logit 0)
            at_half = sp.simplify(bayes.expr.subs(b_prior, sp.Rational(1, 2)))
        else:
            at_half = sp.simplify(bayes.expr.subs(b_prior, sp.Rational(1, 2)).subs(b_par, eps_s))
            at_half = [a for a in (at_half.args if isinstance(at_half, sp.Min) else (at_half,)) if a.has(eps_s)]
            at_half = at_half[0].subs(eps_s, b_par) if len(at_half) == 1 else sp.nan
        wanted = C.BLACKWELL_SYMMETRIC_RR.expr.subs({star: at_half.subs(b_par, p1), e: p2})
        ok = ok and is_zero(sp.simplify(sides(cond.expr)[0] - sides(wanted)[0])) and is_zero(
            sides(cond.expr)[1] - sides(wanted)[1])
    return ok


def check_rr_is_pure_dp_tradeoff() -> bool:
    """RR_eps's trade-off function (from its pmfs) is f_{eps,0}, the toolkit's dp-tradeoff at
    delta = 0, at every knot and between (50 digits)."""
    ok = True
    fn = tradeoff.DP_TRADEOFF.mpmath(50)
    for e in (0.1, 1.0, 3.0):
        curve = RandomizedResponse(e).tradeoff()
        for x in np.linspace(0.0, 1.0, 41):
            ok = ok and abs(float(curve(x)) - float(fn(e, 0.0, x))) < 1e-15
    return ok


def check_laplace_pure_dp() -> bool:
    """Lap_eps2 is eps1-DP iff eps1 >= eps2: the toolkit's laplace-delta max{0, 1 - e^{(eps - mu)/2}}
    is 0 iff eps >= mu (its inner term is decreasing in eps and 0 at eps = mu)."""
    m, e = tradeoff.LAPLACE_DELTA.params
    expr = tradeoff.LAPLACE_DELTA.expr
    inner = [a for a in expr.args if a != 0] if isinstance(expr, sp.Max) else []
    if len(inner) != 1:
        return False
    return (is_zero(inner[0].subs(e, m)) and bool(sp.diff(inner[0], e).subs({m: mu_s, e: eps_s}).is_negative)
            and sides(C.BLACKWELL_RR_LAPLACE.expr) == tuple(reversed(C.BLACKWELL_RR_LAPLACE.params)))


def check_gaussian_below_diagonal() -> bool:
    """pi - R_mu(pi) = (1 - pi)(e^l Phi(b + mu) - Phi(b)), b = l/mu - mu/2, and e^l phi(z + mu) >=
    phi(z) exactly for z <= b: so R_mu(pi) < pi at every prior for mu > 0, while R_Lap and R_RR
    equal pi for pi <= 1/(1 + e^eps): neither dominates G_mu unless mu = 0 (G_0 = M_PP, Lemma 2)."""
    r = tradeoff.GAUSSIAN_BAYES_ERROR
    m, prior = r.params
    p_of_l = sp.exp(lam) / (1 + sp.exp(lam))
    b = lam / mu_s - mu_s / 2
    gap = p_of_l - r.expr.subs({m: mu_s, prior: p_of_l})
    claimed = (1 - p_of_l) * (sp.exp(lam) * Phi(b + mu_s) - Phi(b))
    pts = [{mu_s: sp.Rational(3, 2), lam: sp.Rational(-1, 2)}, {mu_s: sp.Rational(1, 4), lam: 3}]
    z = sp.Symbol("z", real=True)
    ratio = sp.simplify(sp.exp(lam) * phi(z + mu_s) / phi(z))
    # R_Lap = pi where pi <= its square-root branch: (e^{-eps/2} sqrt(pi (1 - pi)))^2 - pi^2 = pi (e^{-eps}
    # - pi (1 + e^{-eps})), which is >= 0 exactly up to pi = 1/(1 + e^eps) (R_RR: its flat value)
    lap_e, lap_prior = cf.LAPLACE_BAYES_ERROR.params
    branch = [a for a in cf.LAPLACE_BAYES_ERROR.expr.args if a.has(lap_e)]
    square = sp.expand(branch[0].subs({lap_e: eps_s, lap_prior: pi}) ** 2 - pi**2) if len(branch) == 1 else sp.nan
    bracket = sp.exp(-eps_s) - pi * (1 + sp.exp(-eps_s))
    return (zero_at(sp.expand_log(gap - claimed, force=True), pts)
            and is_zero(sp.expand_log(sp.log(ratio), force=True) - mu_s * (b - z))
            and is_zero(square - pi * bracket) and is_zero(bracket.subs(pi, 1 / (1 + sp.exp(eps_s))))
            and bool(sp.diff(bracket, pi).is_negative)
            and all(sides(c.expr) in ((c.params[1], 0), (0, c.params[1])) or c.expr == sp.Eq(c.params[1], 0)
                    for c in (C.BLACKWELL_LAPLACE_GAUSSIAN, C.BLACKWELL_RR_GAUSSIAN)))


# ------------------------------------------------------------------ 6. Gaussian against Laplace
def h_of_lambda():
    """h(l) = R_mu(pi)/sqrt(pi (1 - pi)) at pi = e^l/(1 + e^l), from the toolkit's gdp-bayes-error."""
    r = tradeoff.GAUSSIAN_BAYES_ERROR
    m, prior = r.params
    p_of_l = sp.exp(lam) / (1 + sp.exp(lam))
    return r.expr.subs({m: mu_s, prior: p_of_l}) / sp.sqrt(p_of_l * (1 - p_of_l))


def check_h_closed_form() -> bool:
    """h(l) = e^{l/2} Phi(-mu/2 - l/mu) + e^{-l/2} Phi(-mu/2 + l/mu), and h(l) = h(-l)."""
    h = h_of_lambda()
    closed = sp.exp(lam / 2) * Phi(-mu_s / 2 - lam / mu_s) + sp.exp(-lam / 2) * Phi(-mu_s / 2 + lam / mu_s)
    pts = [{mu_s: sp.Rational(6, 5), lam: sp.Rational(-7, 3)}, {mu_s: sp.Rational(1, 3), lam: sp.Rational(1, 2)}]
    return zero_at(sp.expand_log(h - closed, force=True), pts) and zero_at(closed - closed.subs(lam, -lam), pts)


def check_h_as_expectation() -> bool:
    """h(l) = e^{-mu^2/8} E e^{-|W - l|/2}, W ~ N(0, mu^2): the two halves integrated by sympy."""
    dens = sp.exp(-w_s**2 / (2 * mu_s**2)) / (mu_s * sp.sqrt(2 * sp.pi))
    left = sp.integrate(sp.exp((w_s - lam) / 2) * dens, (w_s, -sp.oo, lam))
    right = sp.integrate(sp.exp(-(w_s - lam) / 2) * dens, (w_s, lam, sp.oo))
    closed = sp.exp(lam / 2) * Phi(-mu_s / 2 - lam / mu_s) + sp.exp(-lam / 2) * Phi(-mu_s / 2 + lam / mu_s)
    pts = [{mu_s: sp.Rational(6, 5), lam: sp.Rational(-7, 3)}, {mu_s: sp.Rational(1, 3), lam: sp.Rational(1, 2)},
           {mu_s: 4, lam: 5}]
    return zero_at(sp.exp(-mu_s**2 / 8) * (left + right) - closed, pts)


def check_h_decreasing() -> bool:
    """d/dl E e^{-|W - l|/2} = (1/2) int_0^oo e^{-t/2} (p(l + t) - p(l - t)) dt (W = l + t against
    W = l - t; checked at 30 digits by quadrature against the derivative of the closed form), and
    p(l + t)/p(l - t) = e^{-2 l t/mu^2} < 1 for l, t > 0: h decreases on l > 0, so its maximum is
    h(0) = 2 Phi(-mu/2)."""
    closed = sp.exp(lam / 2) * Phi(-mu_s / 2 - lam / mu_s) + sp.exp(-lam / 2) * Phi(-mu_s / 2 + lam / mu_s)
    dh = sp.diff(closed, lam)
    ok = True
    for mv, lv in ((sp.Rational(6, 5), sp.Rational(7, 10)), (sp.Rational(3, 10), 2), (3, sp.Rational(1, 20))):
        with mpmath.workdps(30):
            m, l = mp(mv), mp(lv)
            dens = lambda x: mpmath.exp(-x**2 / (2 * m**2)) / (m * mpmath.sqrt(2 * mpmath.pi))  # noqa: E731
            integral = mpmath.quad(lambda t: mpmath.exp(-t / 2) * (dens(l + t) - dens(l - t)), [0, l, mpmath.inf]) / 2
            value = mpmath.exp(-m**2 / 8) * integral
            ok = ok and abs(value - sp.N(dh.subs({mu_s: mv, lam: lv}), 30)) < mpmath.mpf(10) ** -25 and value < 0
    dens_ratio = sp.simplify(sp.exp(-(lam + t_s) ** 2 / (2 * mu_s**2)) / sp.exp(-(lam - t_s) ** 2 / (2 * mu_s**2)))
    lpos = sp.Symbol("l", positive=True)
    ok = ok and is_zero(sp.log(dens_ratio).expand(force=True) + 2 * lam * t_s / mu_s**2)
    ok = ok and bool((-2 * lpos * t_s / mu_s**2).is_negative)
    return ok and is_zero(sp.simplify(closed.subs(lam, 0)) - 2 * Phi(-mu_s / 2))


def check_gaussian_laplace_condition(formula=None) -> bool:
    """blackwell-gaussian-laplace is max h = 2 Phi(-mu/2) <= e^{-eps/2}, the square-root branch of
    the toolkit's laplace-bayes-error over sqrt(pi (1 - pi)) (pi = 1/2 is on that branch)."""
    expr = C.BLACKWELL_GAUSSIAN_LAPLACE.expr if formula is None else formula
    m, e = C.BLACKWELL_GAUSSIAN_LAPLACE.params
    lap_e, prior = cf.LAPLACE_BAYES_ERROR.params
    branch = [a for a in cf.LAPLACE_BAYES_ERROR.expr.args if a.has(sp.sqrt(prior * (1 - prior))) or a.has(lap_e)]
    if len(branch) != 1:
        return False
    scale = sp.simplify(branch[0] / sp.sqrt(prior * (1 - prior))).subs(lap_e, e)
    small, big = sides(expr)
    return is_zero(2 * small - 2 * Phi(-m / 2)) and is_zero(2 * big - scale)


def cross_pairs():
    """(condition, pairs) for the cross-family conditions, around each boundary."""
    from scipy.stats import norm

    gl, gr, lr, rl, lg, rg, sr, pd = ([] for _ in range(8))
    for e in (0.05, 0.7, 2.0, 5.0):
        mu_lap = -2 * float(norm.ppf(math.exp(-e / 2) / 2))      # Phi(-mu/2) = e^{-eps/2}/2
        mu_rr = -2 * float(norm.ppf(1 / (1 + math.exp(e))))       # Phi(-mu/2) = 1/(1 + e^eps)
        e_lr = -2 * math.log(2 / (1 + math.exp(e)))               # e^{-eps1/2}/2 = 1/(1 + e^eps2)
        gl += [(f"gaussian(mu={m!r})", f"laplace(eps={e!r})", (m, e)) for m in around(mu_lap, OFF_BOUNDARY)]
        gr += [(f"gaussian(mu={m!r})", f"rr(eps={e!r})", (m, e)) for m in around(mu_rr, OFF_BOUNDARY)]
        lr += [(f"laplace(eps={x!r})", f"rr(eps={e!r})", (x, e)) for x in around(e_lr, OFF_BOUNDARY)]
        rl += [(f"rr(eps={e!r})", f"laplace(eps={x!r})", (e, x)) for x in around(e)]
        # mu = 0 is the boundary: Delta(Lap || G_mu) is resolvable for eps/mu up to about 4
        lg += [(f"laplace(eps={e!r})", f"gaussian(mu={m!r})", (e, m)) for m in (0.0, e / 4, e, 3 * e) if e <= 2]
        rg += [(f"rr(eps={e!r})", f"gaussian(mu={m!r})", (e, m)) for m in (0.0, e / 4, e, 3 * e) if e <= 2]
        # a symmetric M against RR_eps, alpha* computed from the curve (k-ary RR, Laplace)
        for text in ("rr(eps=1.1, k=4)", "laplace(eps=0.9)", "rr(eps=0.4, k=2)"):
            star = float(parse_mechanism(text).tradeoff().bayes_error(0.5))
            sr.append((text, f"rr(eps={e!r})", (star, e)))
        # RR_eps against M: eps-DP iff delta_M(eps) = 0, delta from the toolkit's profiles (the
        # mechanisms' own: exactly 0 from eps0 on); the Gaussian's mu large enough for its Delta
        # to be resolved in floating point
        for text, d in (("laplace(eps=0.7)", tradeoff.laplace(0.7).delta(e)),
                        ("rr(eps=2.0, k=3)", RandomizedResponse(2.0, 3).delta(e)),
                        ("gaussian(mu=2.5)", tradeoff.gaussian(2.5).delta(e))):
            pd.append((f"rr(eps={e!r})", text, (e, float(d))))
    return ((C.BLACKWELL_GAUSSIAN_LAPLACE, gl), (C.BLACKWELL_GAUSSIAN_RR, gr), (C.BLACKWELL_LAPLACE_RR, lr),
            (C.BLACKWELL_RR_LAPLACE, rl), (C.BLACKWELL_LAPLACE_GAUSSIAN, lg), (C.BLACKWELL_RR_GAUSSIAN, rg),
            (C.BLACKWELL_SYMMETRIC_RR, sr), (C.BLACKWELL_RR_PURE_DP, pd))


def main() -> None:
    check = Checks()
    print("Blackwell dominance: Theorem 1 and the closed-form conditions (Kaissis et al. 2024)\n")
    for f in C.CONDITIONS:
        show_formula(f)

    print("\n1. Theorem 1's clauses")
    show_expr("   R_\\mu(\\pi) = (1 - \\pi)\\left(1 - \\delta_\\mu(\\operatorname{logit} \\pi)\\right)",
              tradeoff.GAUSSIAN_BAYES_ERROR.expr)
    check("clauses-2-3-gaussian", check_profile_bayes_gaussian())
    check("clauses-2-3-numeric", check_profile_bayes_numeric())
    check("clauses-against-compare", check_clauses_against_compare())

    print("\n2. Gaussian mechanisms (Lemma B.2)")
    m, a = tradeoff.GAUSSIAN_TRADEOFF.params
    show_expr("   \\partial_\\mu G_\\mu(\\alpha)", sp.simplify(sp.diff(tradeoff.GAUSSIAN_TRADEOFF.expr, m)))
    check("lemma-B2-derivative", check_lemma_b2())
    check("blackwell-gaussian", check_gaussian_condition())
    grid = [((x, y), (x, y)) for _, _, (x, y) in gaussian_pairs()]
    check("delta-gaussian-zero-iff", check_delta_zero_iff(cf.DELTA_GAUSSIAN, C.BLACKWELL_GAUSSIAN, grid))
    check("gaussian-vs-compare", check_against_compare("gaussian", C.BLACKWELL_GAUSSIAN, gaussian_pairs()))
    check("gaussian-composed-vs-compare",
          check_against_compare("composed gaussian", C.BLACKWELL_GAUSSIAN_COMPOSED, gaussian_composed_pairs()))

    print("\n3. Laplace mechanisms and binary randomized response")
    check("blackwell-laplace", check_monotone_bayes_error(cf.LAPLACE_BAYES_ERROR, C.BLACKWELL_LAPLACE))
    check("blackwell-rr", check_monotone_bayes_error(cf.RR_BAYES_ERROR, C.BLACKWELL_RR))
    for delta_f, cond, fam in ((cf.DELTA_LAPLACE, C.BLACKWELL_LAPLACE, "laplace"), (cf.DELTA_RR, C.BLACKWELL_RR, "rr")):
        grid = [((x, y), (x, y)) for _, _, (x, y) in one_parameter_pairs(fam)]
        check(f"delta-{fam}-zero-iff", check_delta_zero_iff(delta_f, cond, grid))
        check(f"{fam}-vs-compare", check_against_compare(fam, cond, one_parameter_pairs(fam)))

    print("\n4. k-ary randomized response")
    low, mid = rr_k_pieces(sp.Symbol("k"), eps_s)
    show_expr("   R(\\pi)", mid, "\\frac{1}{1 + e^{\\epsilon}} \\leq \\pi \\leq \\frac{1}{2}")
    check("rr-k-shape", check_rr_k_shape())
    check("blackwell-rr-k", check_rr_k_condition())
    grid = [((x, y, k1), (x, y, k1, k1)) for _, _, (x, y, k1, k2) in rr_k_pairs() if k1 == k2]
    grid += [((x, y, k), (x, y, k, k)) for x in (0.3, 2.0) for y in around(x) for k in (3, 7)]
    check("delta-rr-k-zero-iff", check_delta_zero_iff(cf.DELTA_RR_K, C.BLACKWELL_RR_K, grid))
    check("rr-k-vs-compare", check_against_compare("k-ary rr", C.BLACKWELL_RR_K, rr_k_pairs()))

    print("\n5. Against binary randomized response")
    check("blackwell-symmetric-rr", check_symmetric_rr())
    check("fixed-point-instances", check_fixed_point_instances())
    check("rr-is-f-eps-0", check_rr_is_pure_dp_tradeoff())
    check("laplace-pure-dp", check_laplace_pure_dp())
    check("gaussian-below-diagonal", check_gaussian_below_diagonal())

    print("\n6. Gaussian against Laplace, $\\lambda = \\operatorname{logit} \\pi$")
    show_expr("   h(\\lambda) = R_\\mu(\\pi)/\\sqrt{\\pi (1 - \\pi)}",
              sp.exp(lam / 2) * Phi(-mu_s / 2 - lam / mu_s) + sp.exp(-lam / 2) * Phi(-mu_s / 2 + lam / mu_s))
    check("h-closed-form", check_h_closed_form())
    check("h-expectation", check_h_as_expectation())
    check("h-decreasing", check_h_decreasing())
    check("blackwell-gaussian-laplace", check_gaussian_laplace_condition())

    print("\n7. The cross-family conditions against compare's numerical verdict")
    for cond, pairs in cross_pairs():
        check(f"{cond.name}-vs-compare", check_against_compare(cond.name, cond, pairs))
    print(f"\n{len(COMPARED)} parameter pairs against compare's numerical verdict in all")
    check.finish()


if __name__ == "__main__":
    main()
