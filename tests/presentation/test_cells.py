"""Text with inline math on a terminal (dptheory.presentation.cells.plain)."""

import pytest

from dptheory.presentation.cells import has_math, plain, split_math


@pytest.mark.parametrize("tex, shown", [
    (r"$\epsilon_0 \leq \frac{1}{2}$", "eps0 <= 1/2"),
    (r"$\epsilon_{0} \leq \frac{1}{2}$", "eps0 <= 1/2"),
    (r"$(e^{\epsilon_0} - 1)^2 / \bar{n}$", "(e^eps0 - 1)^2 / n_bar"),
    (r"$\mu$-GDP", "mu-GDP"),
    (r"$\gamma < 1/2$", "gamma < 1/2"),
    (r"$f_{\mathrm{Shuffle}}^*(-e^{\epsilon})$", "f_Shuffle^*(-e^eps)"),
    (r"$\lambda^4 e^{5\epsilon_0} < n/9$", "lambda^4 e^(5 eps0) < n/9"),
    (r"$\binom{\lambda}{2}$ for $\lambda/2$", "binom(lambda, 2) for lambda/2"),
    (r"$\sqrt{2 C \log(4/\delta)}$", "sqrt(2 C log(4/delta))"),
    (r"$\frac{e^{\epsilon_0} - 1}{e^{\epsilon_0} + 1}$", "(e^eps0 - 1)/(e^eps0 + 1)"),
    (r"$\Phi\left(-\frac{\mu}{2}\right)$", "Phi(-mu/2)"),
    ("no math here: 50% of $5", "no math here: 50% of $5"),
])
def test_plain(tex, shown):
    assert plain(tex) == shown


def test_split_math():
    assert split_math(r"a $x$ b $y^2$") == [(False, "a "), (True, "x"), (False, " b "), (True, "y^2")]
    assert has_math(r"$x$") and not has_math("costs $5")
