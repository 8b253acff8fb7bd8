"""Wang et al. (2023), Prop. 4.1, Thm 4.2 and Cor. 4.3: the symbolic facts behind
dptheory.shuffle.fdp, each checked; prints LaTeX; exits with status 1 if a check fails.

1. 1 - 2w = tanh(eps0/2) for w = 1/(e^eps0 + 1).
2. Prop. 4.1: the segment of T(P0, Q0) created at threshold t = (s+1)/(i-s) has slope
   -p_i(s+1)/p_i(s) = -1/t (Neyman-Pearson), so the knots carry beta_i = 1 - F_i(s_i + 1); the
   printed F_i(s_i + 1) is off (checked for i = 0..8 at every threshold, exact rationals).
3. Cor. 4.3: the conjugate of f_Shuffle = 2w Id + (1 - 2w) T0:
   1 + f_Shuffle*(-e^eps) = (1 - 2w) (1 + T0*(-e^eps~)), e^eps~ = (e^eps - 2w)/(1 - 2w), i.e.
   the optimal P0-threshold is t_y = (1 - 2w)/(e^eps - 2w).
4. The printed t_y uses the chord ratio l(t) = -sum w_i p_i(s_i+1) / sum w_i p_i(s_i), which is
   steeper than the slope -1/t of the curve: -l(t) >= 1/t (checked at n = 12, exact rationals).

Run: python derivations/shuffle_tradeoff.py
"""

import math
import sys
from fractions import Fraction

import sympy as sp

failures = []


def check(label: str, ok: bool) -> None:
    print(f"check {label}: {'ok' if ok else 'FAILED'}")
    if not ok:
        failures.append(label)


def main() -> int:
    eps0, eps, x, y = sp.symbols("epsilon_0 epsilon x y", positive=True)
    w = 1 / (sp.exp(eps0) + 1)

    print("1. The mixing weight")
    one_minus = sp.simplify((1 - 2 * w).rewrite(sp.exp) - sp.tanh(eps0 / 2).rewrite(sp.exp))
    print("   $1 - 2w =", sp.latex(sp.tanh(eps0 / 2)), "$")
    check("1 - 2w = tanh(eps0/2)", one_minus == 0)

    print("\n2. Proposition 4.1: knots of T(P0, Q0) for one component i")
    ok_slope, printed_off = True, False
    for i in range(0, 9):
        pmf = [Fraction(math.comb(i, k), 2**i) for k in range(i + 1)] + [Fraction(0)]
        cdf = [sum(pmf[: k + 1]) for k in range(i + 2)]
        F = lambda k: Fraction(0) if k < 0 else (Fraction(1) if k >= i else cdf[k])  # noqa: E731
        for s in range(-1, i):
            t = Fraction(s + 1, i - s)
            # Neyman-Pearson at threshold t on the atoms (a, b) = (k+1, i-k) of P0 / (k, i-k+1) of Q0
            alpha = sum(pmf[k] for k in range(i + 1) if i - k > 0 and Fraction(k + 1, i - k) <= t)
            beta = sum(pmf[a] for a in range(i + 1) if i - a + 1 == 0 or Fraction(a, i - a + 1) > t)
            ok_slope &= alpha == F(s) and beta == 1 - F(s + 1)
            printed_off |= beta != F(s + 1)
            if s >= 0:
                ok_slope &= Fraction(pmf[s + 1], pmf[s]) == 1 / t
    print(r"   $\alpha_i^0(t) = F_i(s_i(t)),\ \beta_i^0(t) = 1 - F_i(s_i(t) + 1),\ s_i(t) = \lfloor (t i - 1)/(t + 1) \rfloor$")
    check("the corrected knots are the Neyman-Pearson knots, slope -1/t (i <= 8, exact)", ok_slope)
    check("the printed beta_i^0 = F_i(s_i + 1) differs from them", printed_off)

    print("\n3. Corollary 4.3: the conjugate of f_Shuffle")
    t = sp.Symbol("t", positive=True)
    slope = -(2 * w + (1 - 2 * w) / t)
    t_y = sp.solve(sp.Eq(slope, -sp.exp(eps)), t)[0]
    print("   slope of f_Shuffle on the P0-segment of threshold t: $", sp.latex(slope), "$")
    print("   $t_y =", sp.latex(sp.simplify(t_y)), "$")
    check("t_y = (1 - 2w)/(e^eps - 2w)", sp.simplify(t_y - (1 - 2 * w) / (sp.exp(eps) - 2 * w)) == 0)
    # conjugate identity, with T0 a generic segment through (a0, b0) of slope -1/t:
    a0, b0 = sp.symbols("alpha_0 beta_0", nonnegative=True)
    f_at = 2 * w * (1 - a0) + (1 - 2 * w) * b0
    lhs = 1 + (-sp.exp(eps) * a0 - f_at)            # 1 + f*(-e^eps), attained at alpha0(t_y)
    e_tilde = (sp.exp(eps) - 2 * w) / (1 - 2 * w)
    rhs = (1 - 2 * w) * (1 + (-e_tilde * a0 - b0))  # (1 - 2w)(1 + T0*(-e^eps~))
    print("   $1 + f_{\\rm Shuffle}^*(-e^\\epsilon) = (1-2w)\\,\\delta_0(\\tilde\\epsilon),\\ e^{\\tilde\\epsilon} =",
          sp.latex(sp.simplify(e_tilde)), "$")
    check("1 + f_Shuffle*(-e^eps) = (1 - 2w)(1 + T0*(-e^eps~))", sp.simplify(lhs - rhs) == 0)

    print("\n4. The printed t_y: the chord ratio against the slope")
    n = 12
    q = Fraction(2, 4)  # a rational clone probability: the inequality is per component
    weights = [Fraction(math.comb(n - 1, i)) * q**i * (1 - q) ** (n - 1 - i) for i in range(n)]
    ok_chord, strict = True, False
    for tt in sorted({Fraction(a, b) for b in range(1, n + 1) for a in range(1, n + 1 - b)}):
        num = den = Fraction(0)
        for i in range(n):
            s = (tt.numerator * i - tt.denominator) // (tt.numerator + tt.denominator)
            pm = lambda k: Fraction(0) if k < 0 or k > i else Fraction(math.comb(i, k), 2**i)  # noqa: E731
            num += weights[i] * pm(s + 1)
            den += weights[i] * pm(s)
        if den == 0:
            continue
        ok_chord &= num / den >= 1 / tt
        strict |= num / den > 1 / tt
    check("-l(t) >= 1/t at every threshold (n = 12): the chord is steeper", ok_chord)
    check("and strictly at some: the printed t_y is too large, its delta too small", strict)

    if failures:
        print("\nFAILED:", "; ".join(failures))
        return 1
    print("\nall checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
