"""The results of Wang, Su, Ye, Shokri, Su (NeurIPS 2023, arXiv 2310.19973) implemented in
:mod:`dptheory.mixtures`, each with its kind, proof status and source.

Printed forms that are wrong are listed with status ``refuted`` next to the corrected forms; each
is explained in docs/errata.md and has an erratum test in ``tests/mixtures/test_errata.py``.
"""

from __future__ import annotations

import dataclasses

from ..results import Kind, Status

PAPER = "Wang, Su, Ye, Shokri, Su (NeurIPS 2023)"


@dataclasses.dataclass(frozen=True)
class Statement:
    """A result of the paper as implemented: what it bounds, whether it holds, where it is from."""

    name: str
    kind: Kind
    status: Status
    source: str
    note: str = ""

    def as_dict(self) -> dict:
        return {"method": self.name, "kind": str(self.kind), "status": str(self.status),
                "source": self.source, "note": self.note}


def _s(name, kind, status, source, note=""):
    return Statement(name, kind, status, f"{PAPER}, {source}", note)


STATEMENTS = {s.name: s for s in [
    _s("mixture-exact", Kind.EXACT, Status.PROVEN, "Lemma A.1 (Neyman-Pearson on the mixture pmfs)",
       r"$T(P_w, Q_w)$ of the explicit mixture distributions"),
    _s("joint-concavity", Kind.LOWER, Status.PROVEN, "Lemma 3.1, Proposition B.1 (common-threshold reading)",
       r"$T(P_I, Q_I)$: the weighted infimal convolution of the component trade-off functions"),
    _s("joint-concavity-pointwise", Kind.LOWER, Status.REFUTED, "Lemma 3.1 / Proposition B.1 read pointwise",
       r"$\sum_i w_i f_i(\alpha)$ at the same $\alpha$ is not a lower bound (docs/errata.md#wang2023-lemma-3-1)"),
    _s("different-weights", Kind.LOWER, Status.PROVEN, "Proposition B.1 (common-threshold reading, any coupling)"),
    _s("common-threshold-points", Kind.LOWER, Status.PROVEN, "Proposition B.2, Corollary B.3 (sign of the threshold corrected)",
       r"$\alpha(t) = \sum_i w_i (f_i')^{-1}(-t)$; erratum: the printed indicator $1[q/p < t]$ flips the sign"),
    _s("lemma31-tightness", Kind.EXACT, Status.PROVEN, "Proposition 6.1 (as equality of privacy-loss distributions)",
       "erratum: the printed pointwise identity of ratios is read as equality of the PLDs"),
    _s("f-divergence-joint-convexity", Kind.UPPER, Status.PROVEN, "Proposition 3.3"),
    _s("hockey-stick-joint-convexity", Kind.UPPER, Status.PROVEN, "Corollary B.5"),
    _s("renyi-joint-convexity", Kind.UPPER, Status.PROVEN, "Corollary B.6"),
    _s("length", Kind.EXACT, Status.PROVEN, r"Proposition B.7 (with $F(0) = \lim F(s)$)",
       r"erratum: $F(0)$ is $\lim_{s \to 0} F(s)$, not $\lim F(s)/s$"),
    _s("f-at-zero-printed", Kind.EXACT, Status.REFUTED, r"Appendix B.3, $F(0) = \lim_{s \to 0} F(s)/s$",
       r"gives $+\infty$ for the length generator whenever $f(0) < 1$"),
    _s("lemma62", Kind.UPPER, Status.PROVEN, "Lemma 6.2 (generalised advanced joint convexity)"),
    _s("lemma63", Kind.LOWER, Status.PROVEN, r"Lemma 6.3 (advanced joint concavity; symmetric $f_{ij}$)",
       r"$\min\{F, F^{-1}\}^{**}$ is returned, which is $C(F)$ when $\bar{x} \leq F(\bar{x})$"),
    _s("lemma63-corollary-printed", Kind.LOWER, Status.REFUTED, r"Lemma 6.3 proof, corollary with $\eta = \gamma = w$",
       r"$T(P, Q) \geq (1-w) T(P_0, Q) + w T(P_1, Q)$ pointwise is false "
       "(docs/errata.md#wang2023-lemma-6-3-corollary)"),
    _s("prop64", Kind.LOWER, Status.PROVEN, "Proposition 6.4 (symmetrised conclusion)"),
    _s("prop64-pointwise-printed", Kind.LOWER, Status.REFUTED, r"Appendix E.1.1, $f_{PQ} \geq 2w \mathrm{Id} + (1-2w) f_0$ for all $x$",
       r"holds only for $x \leq \bar{x}$ (docs/errata.md#wang2023-proposition-6-4)"),
    _s("prop-e1", Kind.LOWER, Status.PROVEN, r"Proposition E.1 (symmetric $f_1$ below $T(P_1, Q_1)$ and $T(P_1, P_0)$)"),
    _s("prop-e1-printed", Kind.LOWER, Status.REFUTED, r"Proposition E.1 with $f_1 \leq T(P_1, Q_1)$ only",
       r"counterexample in tests/mixtures/test_errata.py: $P_1$ against $P_0$ enters through Lemma A.4"),
    _s("lemma63-max-case", Kind.LOWER, Status.REFUTED, r"Lemma 6.3 with $C(F) = \max\{F, F^{-1}\}$ ($\bar{x} > F(\bar{x})$)",
       r"counterexample in tests/mixtures/test_errata.py; $\min\{F, F^{-1}\}^{**}$ is used instead"),
    _s("example-f3-lemma31", Kind.LOWER, Status.PROVEN, "Example F.3 (Lemma 3.1 bound)"),
    _s("example-f3-lemma63", Kind.LOWER, Status.PROVEN, "Example F.3 (Lemma 6.3 / Proposition E.1 bound)"),
    _s("example-f3-exact", Kind.EXACT, Status.PROVEN, r"Example F.3 (Neyman-Pearson: $w \mathrm{Id} + (1-w) G_\mu$)"),
    _s("dpgd", Kind.LOWER, Status.PROVEN, r"Theorem 5.1 (normalised: weight $e^{-I^2/2}/\sqrt{2\pi}$)",
       "certified by cell-wise enclosure of the integrals and tangent lines"),
    _s("dpgd-printed", Kind.LOWER, Status.REFUTED, r"Theorem 5.1 as printed (weight $e^{-I^2/2}$ without $1/\sqrt{2\pi}$)",
       r"$\alpha(+\infty) = \sqrt{2\pi} > 1$"),
]}


def statement(name: str) -> Statement:
    return STATEMENTS[name]
