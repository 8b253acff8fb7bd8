"""Symbolic checks behind dptheory.mixtures (Wang, Su, Ye, Shokri, Su, NeurIPS 2023).

Prints each identity in LaTeX with its check; exits with status 1 if any check fails.

1. Lemma 6.2: the solution of (9)-(10) for e^{eps_0}, e^{eps_1}.
2. Lemma 6.3: the rescaled coefficients sum to 1 in both coordinates (F is a trade-off function
   from (0, sum c f(0)) to (1, 0)).
3. Example F.3: the "linear" piece of the Lemma 3.1 bound is continuous with the outer pieces.
4. Thm 5.1: the printed weight e^{-I^2/2} integrates to sqrt(2 pi) (the normalisation erratum);
   the two sign cases of the printed integrand equal the |mu| form.
5. Prop. B.7: F(1/|f'|) |f'| = sqrt(1 + f'^2) for F(y) = sqrt(1 + y^2), and F(0) = lim F = 1
   while the printed lim F(s)/s is infinite.
"""

from __future__ import annotations

import sys

import sympy as sp

failures: list[str] = []


def check(name: str, expr, ok: bool) -> None:
    print(f"{name}: ${sp.latex(expr)}$")
    print(f"check {name}: {'ok' if ok else 'FAILED'}")
    if not ok:
        failures.append(name)


w, g, eta, E = sp.symbols("w gamma eta E", positive=True)
a, b = sp.symbols("a b", positive=True)

# 1. Lemma 6.2
sol = sp.solve([(1 - w) * a + w * b - E, (1 - w) * g * a + w * eta * b - w * E], [a, b], dict=True)[0]
check("Lemma 6.2, e^{eps_0}", sp.Eq(a, sol[a]), sp.simplify(sol[a] - E * (eta - w) / ((1 - w) * (eta - g))) == 0)
check("Lemma 6.2, e^{eps_1}", sp.Eq(b, sol[b]), sp.simplify(sol[b] - E * (w - g) / (w * (eta - g))) == 0)

# 2. Lemma 6.3 coefficients: c_00 + c_10 + c_01 + c_11 = 1 and sum c s = 1
s0 = (eta - w) / ((1 - w) * (eta - g))
s1 = (w - g) / (w * (eta - g))
c00, c10, c01, c11 = (1 - w) * (1 - g), w * (1 - eta), (1 - w) * g, w * eta
widths = sp.simplify(c00 * s0 + c01 * s0 + c10 * s1 + c11 * s1)
check("Lemma 6.3, sum c_ij s_i", sp.Eq(sp.Symbol("W"), widths), widths == 1)
check("Lemma 6.3, sum c_ij", sp.Eq(sp.Symbol("H"), sp.simplify(c00 + c01 + c10 + c11)),
      sp.simplify(c00 + c01 + c10 + c11) == 1)

# 3. Example F.3 linear piece
mu, x = sp.symbols("mu alpha", positive=True)
Phi = lambda z: (1 + sp.erf(z / sp.sqrt(2))) / 2  # noqa: E731
Phiinv = lambda p: sp.sqrt(2) * sp.erfinv(2 * p - 1)  # noqa: E731
G = lambda al: Phi(Phiinv(1 - al) - mu)  # noqa: E731
left_end = (1 - w) * Phi(-mu / 2)
right_end = 1 - (1 - w) * Phi(mu / 2)
linear = w + 2 * (1 - w) * Phi(-mu / 2) - x
outer_left = w + (1 - w) * G(x / (1 - w))
outer_right = (1 - w) * G((x - w) / (1 - w))
vals = {w: sp.Rational(1, 3), mu: 1}
d_left = sp.N((linear - outer_left).subs(x, left_end).subs(vals), 40)
d_right = sp.N((linear - outer_right).subs(x, right_end).subs(vals), 40)
check("Example F.3, continuity at (1-w) Phi(-mu/2)", sp.Eq(linear.subs(x, left_end), outer_left.subs(x, left_end)),
      abs(d_left) < 1e-30)
check("Example F.3, continuity at 1 - (1-w) Phi(mu/2)", sp.Eq(linear, outer_right), abs(d_right) < 1e-30)

# 4. Thm 5.1 normalisation and sign cases
I = sp.Symbol("I", real=True)
mass = sp.integrate(sp.exp(-I**2 / 2), (I, -sp.oo, sp.oo))
check("Thm 5.1, printed total weight", sp.Eq(sp.Integral(sp.exp(-I**2 / 2), (I, -sp.oo, sp.oo)), mass),
      sp.simplify(mass - sp.sqrt(2 * sp.pi)) == 0)
t = sp.Symbol("t", real=True)
m = sp.Symbol("m", positive=True)
tw_pos = -t / m + m / 2          # mu_w = m > 0: printed Phi(-t_w)
tw_neg = -t / (-m) + (-m) / 2    # mu_w = -m < 0: printed Phi(t_w)
abs_form = t / m - m / 2
check("Thm 5.1, mu > 0 case", sp.Eq(-tw_pos, abs_form, evaluate=False), sp.simplify(-tw_pos - abs_form) == 0)
check("Thm 5.1, mu < 0 case", sp.Eq(tw_neg, abs_form, evaluate=False), sp.simplify(tw_neg - abs_form) == 0)

# 5. Prop. B.7
s = sp.Symbol("s", positive=True)
F = sp.sqrt(1 + s**2)
fp = sp.Symbol("k", positive=True)  # |f'|
check("Prop. B.7, integrand", sp.Eq(sp.Mul(F.subs(s, 1 / fp), fp, evaluate=False), sp.sqrt(1 + fp**2), evaluate=False),
      sp.simplify(F.subs(s, 1 / fp) * fp - sp.sqrt(1 + fp**2)) == 0)
check("F(0) = lim F(s)", sp.Eq(sp.Limit(F, s, 0), sp.limit(F, s, 0)), sp.limit(F, s, 0) == 1)
check("printed F(0) = lim F(s)/s", sp.Eq(sp.Limit(F / s, s, 0), sp.limit(F / s, s, 0)), sp.limit(F / s, s, 0) == sp.oo)

print(f"\n{len(failures)} failed checks" if failures else "\nall checks passed")
sys.exit(1 if failures else 0)
