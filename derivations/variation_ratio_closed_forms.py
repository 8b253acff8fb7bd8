"""Wang et al. (2024), Theorems 4.2 and 4.3 and Table 1: what the printed Theorem 4.2 says, why its
nesting must be corrected, the corrected monotonicity threshold, and the asymptotic orders.

Run: python derivations/variation_ratio_closed_forms.py  (prints the derivation and LaTeX)
"""

import sympy as sp

from dptheory.shuffle import variation_ratio as vr
from dptheory.symbols import beta, delta, n, p, q

alpha = beta / (p - 1)
r = alpha * p / q
L4 = sp.log(4 / delta)
C = sp.Symbol("C", positive=True)
K = (1 - alpha - alpha * p) * r / (1 - 2 * r)


def main() -> None:
    # 1. Appendix F bounds the likelihood ratio by 1 + F(C) at a clone count C:
    F = (p - 1) * alpha * (2 * sp.sqrt(C / 2 * L4) + 1) / (
        alpha * C + (p - 1) * alpha * (C / 2 - sp.sqrt(C / 2 * L4)) + (1 - alpha - alpha * p) * (n - 1 - C) * r / (1 - 2 * r))
    print("1. Appendix F: ratio <= 1 + F(C) with")
    print("   F(C) =", sp.latex(sp.simplify(F)))

    # 2. The printed epsilon: its beta (Omega/2)/(alpha Omega) term is (p-1)/2, independent of n
    omega = sp.Symbol("Omega", positive=True)
    printed = vr.THEOREM_4_2_PRINTED.expr
    term = sp.simplify((beta * (omega / 2)) / (alpha * omega))
    print("\n2. The printed Theorem 4.2 contains beta (Omega/2) / (alpha Omega) =", term,
          ": it never decreases with n, so eps_printed >= log(1 + (p-1)/2).")
    n_limit = sp.limit(printed.subs({p: sp.E, q: sp.E, beta: (sp.E - 1) / (sp.E + 1), delta: sp.Rational(1, 10**6)}), n, sp.oo)
    print("   limit n -> oo of the printed form at p = q = e, worst beta, delta = 1e-6:", sp.N(n_limit, 6),
          "= log(1 + (e-1)/2) =", sp.N(sp.log(1 + (sp.E - 1) / 2), 6))

    # 3. Evaluating F at C = Omega gives the corrected form: check the identity symbolically
    corrected = vr.THEOREM_4_2.expr
    ours = sp.log(1 + F.subs(C, vr._OMEGA))
    points = [{p: 3, q: 3, beta: sp.Rational(1, 2), n: 10**5, delta: sp.Rational(1, 10**6)},
              {p: 81, q: 9, beta: sp.Rational(4, 5), n: 10**5, delta: sp.Rational(1, 10**6)},
              {p: sp.E, q: 2, beta: sp.Rational(2, 5), n: 10**7, delta: sp.Rational(1, 10**9)}]
    same = all(abs(sp.N(ours.subs(pt) - corrected.subs(pt), 40)) < 1e-35 for pt in points)
    print("\n3. log(1 + F(Omega)) equals the corrected Theorem 4.2 (40 digits at three points):", same)
    n_limit = sp.limit(corrected.subs({p: sp.E, q: sp.E, beta: (sp.E - 1) / (sp.E + 1), delta: sp.Rational(1, 10**6)}), n, sp.oo)
    print("   limit n -> oo of the corrected form:", n_limit)

    # 4. Where F decreases: with s = sqrt(C), dF/ds < 0 iff A s^2 + (A/u) s > K (n-1) + beta/2
    s = sp.Symbol("s", positive=True)
    Fs = F.subs(C, s**2)
    num = sp.numer(sp.together(sp.diff(Fs, s)))
    print("\n4. sign of dF/ds is the sign of", sp.latex(sp.factor(sp.simplify(num))))
    print("   threshold s*^2 used as condition 2 (corrected):", sp.latex(vr._S_STAR**2))

    # 5. Asymptotic order of Theorem 4.3 and the Table 1 rates
    v = sp.Symbol("v", nonnegative=True)  # Theorem 4.3's max(0, 4/9 (1-3r)/(1-2r)), constant in n
    # eps = log(1 + x) with x -> 0, so sqrt(n) eps and sqrt(n) x have the same limit
    c43 = sp.limit((sp.exp(vr.THEOREM_4_3.expr.subs(vr._V43, v)) - 1) * sp.sqrt(n), n, sp.oo)
    print("\n5. Theorem 4.3: sqrt(n) * eps -> ", sp.latex(sp.simplify(c43)), " (the Table 1 rate sqrt(beta (p-1) q / p))")
    c42 = sp.limit(vr.THEOREM_4_2.expr.subs({p: sp.E, q: sp.E, beta: (sp.E - 1) / (sp.E + 1)}) * sp.sqrt(n), n, sp.oo)
    print("   Theorem 4.2 (p = q = e, worst beta): sqrt(n) * eps ->", sp.latex(sp.simplify(c42)))
    for name, f in vr.TABLE_1.items():
        print(f"   Table 1 {name:18s}", f.latex())
    print("\nLaTeX:")
    print(vr.THEOREM_4_2.latex())
    print(vr.THEOREM_4_3.latex())


if __name__ == "__main__":
    main()
