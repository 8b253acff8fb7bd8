"""Local randomizers and their variation-ratio parameters (p, beta, q).

Wang et al. (VLDB 2024), Section 4: a randomizer has the (p, beta)-variation property when the outputs
on any two inputs are (log p, 0)-close and at total variation at most beta, and the q-ratio
property when user 1's output density is at most q times any other user's. Tables 2, 3, 4 and 6
list them for common randomizers; each is a sympy :class:`~dptheory.formula.Formula` here, with
its source. For finite randomizers the exact output pmfs are available too, and
:func:`from_pmfs` computes the true (p, beta, q) of any row-stochastic matrix (used by the tests to
check every table entry).

Multi-message protocols (Table 4) carry ``blankets``: the number of input-independent messages
each user sends; with n users the reduction sees n * blankets other messages instead of n - 1.
"""

from __future__ import annotations

import dataclasses
import itertools
import fractions
import math
from typing import Callable

import numpy as np

from .. import rounding, validate
from ..formula import Parts, definer
from ..lazy_import import mpmath
from ..results import Kind, Status

_TABLE2 = "Wang et al. (2024), Table 2"


def _closed_forms() -> dict[str, Parts]:
    """The sympy expressions of this module's formulas, built on first use (sympy is slow to import)."""
    import sympy as sp

    from ..symbols import d, eps0, k

    _E = sp.exp(eps0)
    # mechanism parameters that are not shared symbols
    l_sym = sp.Symbol("l", positive=True, integer=True)        # local-hash range
    c_cap = sp.Symbol("c", positive=True)                      # PrivUnit cap area
    K_sym = sp.Symbol("K", positive=True, integer=True)        # Hadamard response
    s_sym = sp.Symbol("s", positive=True, integer=True)        # items / special bins
    w_len = sp.Symbol("w", positive=True)                      # Wheel length (the paper's "p")
    f_sym = sp.Symbol("f", positive=True)                      # flip probability
    d01 = sp.Symbol("d_01", positive=True)                     # metric distance of the pair

    beta = {
        "general": Parts((_E - 1) / (_E + 1), (eps0,)),
        "laplace": Parts(1 - sp.exp(-eps0 / 2), (eps0,)),
        "privunit": Parts(c_cap * (_E - 1) / (c_cap * _E + 1 - c_cap), (eps0, c_cap), (c_cap <= sp.Rational(1, 2),)),
        "grr": Parts((_E - 1) / (_E + d - 1), (eps0, d), (d >= 2,)),
        "unary-encoding": Parts((sp.exp(eps0 / 2) - 1) / (sp.exp(eps0 / 2) + 1), (eps0,)),
        "subset-selection": Parts(
            (_E - 1) * (sp.binomial(d - 1, k - 1) - sp.binomial(d - 2, k - 2))
            / (_E * sp.binomial(d - 1, k - 1) + sp.binomial(d - 1, k)),
            (eps0, d, k), (k < d,)),
        "local-hash": Parts((_E - 1) / (_E + l_sym - 1), (eps0, l_sym), (l_sym >= 2,)),
        "hadamard": Parts(s_sym * (_E - 1) / 2 / (s_sym * _E + K_sym - s_sym), (eps0, K_sym, s_sym), (s_sym < K_sym,)),
        "sampling-rappor": Parts(s_sym * (sp.exp(eps0 / 2) - 1) / (d * (sp.exp(eps0 / 2) + 1)), (eps0, d, s_sym),
                                 (s_sym <= d,)),
        "wheel": Parts(s_sym * w_len * (_E - 1) / (s_sym * w_len * _E + 1 - s_sym * w_len), (eps0, s_sym, w_len),
                       (s_sym * w_len <= 1,)),
        "k-subset-exponential": Parts(
            (_E - 1) * (sp.binomial(d - s_sym, k) - sp.binomial(d - 2 * s_sym, k))
            / (_E * (sp.binomial(d, k) - sp.binomial(d - s_sym, k)) + sp.binomial(d - s_sym, k)),
            (eps0, d, k, s_sym), (2 * s_sym <= d,)),
        "metric-laplace": Parts(1 - sp.exp(-d01 / 2), (d01,)),
        "cheu-zhilyaev": Parts(1 - 2 * f_sym, (f_sym,), (f_sym <= sp.Rational(1, 2),)),
        "mixdump": Parts(((1 - f_sym) * (d - 1) - f_sym) / (d - 1), (f_sym, d), (f_sym <= (d - 1) / d,)),
    }
    return {f"beta-{name}": parts for name, parts in beta.items()}


_beta = definer(_closed_forms, kind=Kind.EXACT, status=Status.PROVEN, lhs=r"\beta")


def _beta_formula(name, source):
    """The registered beta of Table 2, 3, 4 or 6: the exact total-variation parameter of ``name``."""
    return _beta(f"beta-{name}", source=source, description=f"variation-ratio total-variation parameter of {name}")


BETA = {
    "general": _beta_formula("general", _TABLE2 + " (Kairouz et al. 2014)"),
    "laplace": _beta_formula("laplace", _TABLE2 + " (Laplace on [0,1])"),
    "privunit": _beta_formula("privunit", _TABLE2 + " (PrivUnit, cap area $c \\leq 1/2$)"),
    "grr": _beta_formula("grr", _TABLE2 + " (GRR on d options)"),
    "unary-encoding": _beta_formula("unary-encoding", _TABLE2 + " (binary RR on d options, Duchi et al. 2013)"),
    "subset-selection": _beta_formula("subset-selection", _TABLE2 + " (k-subset on d options)"),
    "local-hash": _beta_formula("local-hash", _TABLE2 + " (local hash with range l)"),
    "hadamard": _beta_formula("hadamard", _TABLE2 + " (Hadamard response, B = 1)"),
    "sampling-rappor": _beta_formula("sampling-rappor", _TABLE2 + " (sampling RAPPOR, s of d)"),
    "wheel": _beta_formula("wheel", _TABLE2 + " (Wheel, length w; the paper's p)"),
    "k-subset-exponential": _beta_formula("k-subset-exponential",
                                          "Wang et al. (2024), Table 6 (k-subset exponential, s of d)"),
    "metric-laplace": _beta_formula("metric-laplace", "Wang et al. (2024), Table 3 (Laplace, l1 on R)"),
    "cheu-zhilyaev": _beta_formula("cheu-zhilyaev", "Wang et al. (2024), Table 4 (Cheu and Zhilyaev 2022)"),
    "mixdump": _beta_formula("mixdump", "Wang et al. (2024), Table 4 (mixDUMP)"),
}


@dataclasses.dataclass(frozen=True)
class Randomizer:
    """A local randomizer with its variation-ratio parameters.

    Attributes
    ----------
    name : str
    p, beta, q : float
        Variation-ratio parameters (p may be ``inf`` for multi-message protocols).
    eps0 : float or None
        The local DP level, when the randomizer is eps0-LDP.
    pmfs : ndarray or None
        Row-stochastic matrix (inputs x outputs) of a finite randomizer.
    blankets : int
        Input-independent messages per user (multi-message protocols; 0 otherwise).
    uniform_beta : bool
        Every pair of distinct inputs is at total variation exactly beta (symmetric randomizers).
    source : str
    pmfs_exact : callable or None
        ``pmfs_exact()`` evaluates the pmfs from their definition with mpmath at the working
        precision (``pmfs`` is its float64 rounding); used by the exact engine's mpmath path.
    """

    name: str
    p: float
    beta: float
    q: float
    eps0: float | None = None
    pmfs: np.ndarray | None = dataclasses.field(default=None, repr=False, compare=False)
    blankets: int = 0
    uniform_beta: bool = False
    source: str = ""
    #: () -> the pmfs from the randomizer's definition as mpmath numbers at the working precision
    #: (None where the float ``pmfs`` are the definition, as for :func:`from_pmfs`)
    pmfs_exact: Callable[[], list] | None = dataclasses.field(default=None, repr=False, compare=False)

    def __post_init__(self):
        p = validate.real("p", self.p, low=1.0, low_open=True, allow_inf=True)
        validate.real("q", self.q, low=1.0, allow_inf=True)
        worst = 1.0 if math.isinf(p) else (p - 1) / (p + 1)
        b = validate.real("beta", self.beta, low=0.0)
        if b > worst * (1 + 1e-12):
            raise validate.DomainError(
                f"beta = {b!r} is invalid: must be in [0, (p-1)/(p+1)] = [0, {worst!r}] for p = {p!r}")
        object.__setattr__(self, "beta", min(b, worst))

    @property
    def worst_case_beta(self) -> float:
        """(p - 1)/(p + 1), the largest total variation compatible with the ratio bound p."""
        return 1.0 if math.isinf(self.p) else (self.p - 1) / (self.p + 1)

    @property
    def is_worst_case(self) -> bool:
        return self.beta >= self.worst_case_beta * (1 - 1e-12)

    def others(self, n: int) -> int:
        """Number of other messages the reduction sees with n users."""
        return n * self.blankets if self.blankets else n - 1

    def with_beta(self, beta: float) -> "Randomizer":
        return dataclasses.replace(self, beta=beta, pmfs=None, pmfs_exact=None, uniform_beta=False)


# ----------------------------------------------------------------------------- pmfs


def _grr_pmfs(e0: float, size: int, ctx=math) -> np.ndarray:
    e = ctx.exp(e0)
    z = e + size - 1
    return np.array([[e / z if x == y else 1 / z for y in range(size)] for x in range(size)],
                    dtype=float if ctx is math else object)


def _subset_pmfs(e0: float, size: int, kk: int, ctx=math) -> np.ndarray:
    subsets = list(itertools.combinations(range(size), kk))
    e = ctx.exp(e0)
    z = e * math.comb(size - 1, kk - 1) + math.comb(size - 1, kk)
    return np.array([[e / z if x in sub else 1 / z for sub in subsets] for x in range(size)],
                    dtype=float if ctx is math else object)


def _unary_pmfs(e0: float, size: int, ctx=math) -> np.ndarray:
    flip = 1 / (ctx.exp(e0 / 2) + 1)
    outs = list(itertools.product((0, 1), repeat=size))
    rows = []
    for x in range(size):
        onehot = [1 if i == x else 0 for i in range(size)]
        rows.append([math.prod((flip if o != h else 1 - flip for o, h in zip(out, onehot)), start=ctx.mpf(1) if ctx is not math else 1)
                     for out in outs])
    return np.array(rows, dtype=float if ctx is math else object)


def _local_hash_pmfs(e0: float, rng: int, size: int, ctx=math) -> np.ndarray:
    """Local hashing with the family of all functions [size] -> [rng]; output (h, GRR_rng(h(x)))."""
    funcs = list(itertools.product(range(rng), repeat=size))
    e = ctx.exp(e0)
    z = e + rng - 1
    rows = []
    for x in range(size):
        row = []
        for h in funcs:
            for y in range(rng):
                row.append((e if h[x] == y else 1) / z / len(funcs))
        rows.append(row)
    return np.array(rows, dtype=float if ctx is math else object)


def _exact(builder, e0: float, *args) -> Callable[[], np.ndarray]:
    """``builder``'s pmfs evaluated by mpmath at the working precision, from the exact float eps0."""
    return lambda: builder(mpmath.mpf(e0), *args, ctx=mpmath)


# ----------------------------------------------------------------------------- factories


def _eps0(value) -> float:
    return validate.eps0("eps0", value)


def general_ldp(eps0_value) -> Randomizer:
    """Any eps0-LDP randomizer: p = q = e^eps0, beta = (e^eps0 - 1)/(e^eps0 + 1) (worst case)."""
    e0 = _eps0(eps0_value)
    return Randomizer("general", math.exp(e0), float(BETA["general"](e0)), math.exp(e0), eps0=e0,
                      uniform_beta=True, source=BETA["general"].source)


def binary_rr(eps0_value) -> Randomizer:
    """Randomized response on 2 options (Warner 1965): worst-case beta, exact pmfs."""
    e0 = _eps0(eps0_value)
    return Randomizer("binary-rr", math.exp(e0), float(BETA["grr"](e0, 2)), math.exp(e0), eps0=e0,
                      pmfs=_grr_pmfs(e0, 2), pmfs_exact=_exact(_grr_pmfs, e0, 2), uniform_beta=True,
                      source=BETA["grr"].source)


def grr(eps0_value, d_value) -> Randomizer:
    """Generalized randomized response on d options (Kairouz et al. 2016)."""
    e0 = _eps0(eps0_value)
    dd = validate.integer("d", d_value, low=2)
    pm = _grr_pmfs(e0, dd) if dd <= 64 else None
    return Randomizer(f"grr(d={dd})", math.exp(e0), float(BETA["grr"](e0, dd)), math.exp(e0), eps0=e0,
                      pmfs=pm, pmfs_exact=_exact(_grr_pmfs, e0, dd) if pm is not None else None, uniform_beta=True,
                      source=BETA["grr"].source)


def unary_encoding(eps0_value, d_value) -> Randomizer:
    """Binary RR on each of d one-hot bits with flip probability 1/(e^{eps0/2}+1) (Duchi et al.
    2013; "binary RR on d options" in Table 2). Exact pmfs (2^d outputs) for d <= 12."""
    e0 = _eps0(eps0_value)
    dd = validate.integer("d", d_value, low=2)
    pm = _unary_pmfs(e0, dd) if dd <= 12 else None
    return Randomizer(f"unary-encoding(d={dd})", math.exp(e0), float(BETA["unary-encoding"](e0)), math.exp(e0),
                      eps0=e0, pmfs=pm, pmfs_exact=_exact(_unary_pmfs, e0, dd) if pm is not None else None,
                      uniform_beta=True, source=BETA["unary-encoding"].source)


def subset_selection(eps0_value, d_value, k_value) -> Randomizer:
    """k-subset selection on d options (Wang et al. 2016; Ye and Barg 2018)."""
    e0 = _eps0(eps0_value)
    dd = validate.integer("d", d_value, low=2)
    kk = validate.integer("k", k_value, low=1, high=dd - 1)
    pm = _subset_pmfs(e0, dd, kk) if math.comb(dd, kk) <= 5000 else None
    return Randomizer(f"subset-selection(d={dd},k={kk})", math.exp(e0), float(BETA["subset-selection"](e0, dd, kk)),
                      math.exp(e0), eps0=e0, pmfs=pm, pmfs_exact=_exact(_subset_pmfs, e0, dd, kk) if pm is not None else None,
                      uniform_beta=True, source=BETA["subset-selection"].source)


def local_hash(eps0_value, l_value, d_value=None) -> Randomizer:
    """Local hashing with range l (Wang et al. 2017). The Table 2 beta is used; with a small
    domain ``d`` the exact pmfs over the family of all hash functions are attached (their true
    total variation is (1 - 1/l) times the table's, which remains a valid, larger, beta)."""
    e0 = _eps0(eps0_value)
    ll = validate.integer("l", l_value, low=2)
    pm = exact_pm = None
    if d_value is not None:
        dd = validate.integer("d", d_value, low=2)
        if ll**dd * ll > 20000:
            raise validate.DomainError(f"d = {dd} is too large for exact local-hash pmfs with l = {ll} (l^(d+1) <= 20000)")
        pm = _local_hash_pmfs(e0, ll, dd)
        exact_pm = _exact(_local_hash_pmfs, e0, ll, dd)
    return Randomizer(f"local-hash(l={ll})", math.exp(e0), float(BETA["local-hash"](e0, ll)), math.exp(e0), eps0=e0,
                      pmfs=pm, pmfs_exact=exact_pm, uniform_beta=True, source=BETA["local-hash"].source)


def optimal_local_hash(eps0_value) -> Randomizer:
    """Local hashing with l = round(e^eps0 + 1) (Wang et al. 2017), as in Figure 2 of Wang et al. 2024."""
    return local_hash(eps0_value, max(2, int(round(math.exp(_eps0(eps0_value)) + 1))))


def laplace(eps0_value) -> Randomizer:
    """Laplace mechanism on [0, 1] with scale 1/eps0 (Dwork et al. 2006): beta = 1 - e^{-eps0/2}."""
    e0 = _eps0(eps0_value)
    return Randomizer("laplace", math.exp(e0), float(BETA["laplace"](e0)), math.exp(e0), eps0=e0,
                      source=BETA["laplace"].source)


def privunit(eps0_value, cap) -> Randomizer:
    e0 = _eps0(eps0_value)
    c = validate.real("cap", cap, low=0.0, low_open=True, high=0.5)
    return Randomizer(f"privunit(c={c})", math.exp(e0), float(BETA["privunit"](e0, c)), math.exp(e0), eps0=e0,
                      source=BETA["privunit"].source)


def hadamard(eps0_value, K_value, s_value) -> Randomizer:
    e0 = _eps0(eps0_value)
    KK = validate.integer("K", K_value, low=2)
    ss = validate.integer("s", s_value, low=1, high=KK - 1)
    return Randomizer(f"hadamard(K={KK},s={ss})", math.exp(e0), float(BETA["hadamard"](e0, KK, ss)), math.exp(e0),
                      eps0=e0, source=BETA["hadamard"].source)


def sampling_rappor(eps0_value, d_value, s_value) -> Randomizer:
    e0 = _eps0(eps0_value)
    dd = validate.integer("d", d_value, low=1)
    ss = validate.integer("s", s_value, low=1, high=dd)
    return Randomizer(f"sampling-rappor(d={dd},s={ss})", math.exp(e0), float(BETA["sampling-rappor"](e0, dd, ss)),
                      math.exp(e0), eps0=e0, source=BETA["sampling-rappor"].source)


def wheel(eps0_value, s_value, length) -> Randomizer:
    e0 = _eps0(eps0_value)
    ss = validate.integer("s", s_value, low=1)
    w = validate.real("length", length, low=0.0, low_open=True, high=1.0 / ss)
    return Randomizer(f"wheel(s={ss},w={w})", math.exp(e0), float(BETA["wheel"](e0, ss, w)), math.exp(e0), eps0=e0,
                      source=BETA["wheel"].source)


def k_subset_exponential(eps0_value, d_value, k_value, s_value) -> Randomizer:
    e0 = _eps0(eps0_value)
    dd = validate.integer("d", d_value, low=2)
    kk = validate.integer("k", k_value, low=1, high=dd - 1)
    ss = validate.integer("s", s_value, low=1, high=dd // 2)
    return Randomizer(f"k-subset-exponential(d={dd},k={kk},s={ss})", math.exp(e0),
                      float(BETA["k-subset-exponential"](e0, dd, kk, ss)), math.exp(e0), eps0=e0,
                      source=BETA["k-subset-exponential"].source)


def metric_general(d01_value, dmax_value) -> Randomizer:
    """Any local d_X-private randomizer (Table 3): p = e^{d01}, worst-case beta, q = e^{dmax}."""
    a = validate.positive("d01", d01_value)
    m = validate.real("dmax", dmax_value, low=a)
    return Randomizer("metric-general", math.exp(a), math.tanh(a / 2), math.exp(m),
                      source="Wang et al. (2024), Table 3")


def metric_laplace(d01_value, dmax_value) -> Randomizer:
    a = validate.positive("d01", d01_value)
    m = validate.real("dmax", dmax_value, low=a)
    return Randomizer("metric-laplace", math.exp(a), float(BETA["metric-laplace"](a)), math.exp(m),
                      source=BETA["metric-laplace"].source)


def cheu_zhilyaev(f_value, blankets) -> Randomizer:
    """Cheu and Zhilyaev (2022) with flip probability f and the given number of blanket messages
    per user (Table 4)."""
    f = validate.real("f", f_value, low=0.0, low_open=True, high=0.5, high_open=True)
    m = validate.integer("blankets", blankets, low=1)
    return Randomizer(f"cheu-zhilyaev(f={f})", ((1 - f) / f) ** 2, float(BETA["cheu-zhilyaev"](f)), (1 - f) / f,
                      blankets=m, source=BETA["cheu-zhilyaev"].source)


def balcer_cheu(coin_prob, blankets) -> Randomizer:
    """Balcer and Cheu (2020) binary summation with a coin of bias ``coin_prob`` (Table 4)."""
    c = validate.real("coin_prob", coin_prob, low=0.0, low_open=True, high=1.0, high_open=True)
    m = validate.integer("blankets", blankets, low=1)
    return Randomizer(f"balcer-cheu(coin={c})", math.inf, 1.0, max(1 / c, 1 / (1 - c)), blankets=m,
                      source="Wang et al. (2024), Table 4 (Balcer and Cheu 2020)")


def balls_into_bins(d_value, s_value, blankets) -> Randomizer:
    dd = validate.integer("d", d_value, low=1)
    ss = validate.integer("s", s_value, low=1, high=dd)
    m = validate.integer("blankets", blankets, low=1)
    return Randomizer(f"balls-into-bins(d={dd},s={ss})", math.inf, 1.0, dd / ss, blankets=m,
                      source="Wang et al. (2024), Table 4 (Luo et al. 2022)")


def _calibrations() -> dict[str, Parts]:
    """The protocols' own calibrations that Wang et al. (2024), Section 7.2, compare against
    (built on first use)."""
    import sympy as sp

    from ..symbols import d, delta, n

    eps_prime = sp.Symbol("epsilon'", positive=True)  # the global budget the original analysis gives
    s_sym = sp.Symbol("s", positive=True, integer=True)  # special bins
    coth2 = ((sp.exp(eps_prime) + 1) / (sp.exp(eps_prime) - 1)) ** 2
    # L: the right-hand side of f (1 - f) n = (33/5) coth^2(eps'/2) log(4/delta), over n
    load = sp.Symbol("L", positive=True)
    return {
        # the smaller root, written without the cancellation of (1 - sqrt(1 - 4 L)) / 2
        "cheu-zhilyaev-flip": Parts(2 * load / (1 + sp.sqrt(1 - 4 * load)), (eps_prime, n, delta),
                                    (delta < 1, 4 * load < 1),
                                    ((load, sp.Rational(33, 5) * coth2 * sp.log(4 / delta) / n),)),
        "balls-into-bins-messages": Parts(sp.floor(32 * sp.log(2 / delta) * d / (eps_prime**2 * s_sym)),
                                          (eps_prime, d, s_sym, delta), (delta < 1, s_sym <= d)),
    }


#: the protocols' calibrations, from :func:`_calibrations`
_calibration = definer(_calibrations, kind=Kind.EXACT, status=Status.PROVEN)

CHEU_ZHILYAEV_FLIP = _calibration(
    "cheu-zhilyaev-flip",
    source="Cheu and Zhilyaev (2022), as calibrated for Wang et al. (2024), Section 7.2 (Figure 3), in the authors' code",
    lhs="f",
    description=("flip probability at which Cheu and Zhilyaev's analysis gives the global $\\epsilon'$ to n users: "
                 "the smaller root of $f (1 - f) n = \\frac{33}{5} \\left(\\frac{e^{\\epsilon'} + 1}"
                 "{e^{\\epsilon'} - 1}\\right)^2 \\log(4/\\delta)$ (none where n is at most four times the right-hand side)"),
)

BALLS_INTO_BINS_MESSAGES = _calibration(
    "balls-into-bins-messages",
    source="Luo et al. (2022), as used in Wang et al. (2024), Figure 4 (caption)",
    erratum="rounded down (dptheory: the caption does not say how n is rounded)",
    lhs="n",
    description=("number of messages at which Luo et al.'s analysis of balls-into-bins with d bins, s of them "
                 "special, gives the global $\\epsilon'$"),
)


def mixdump(f_value, d_value, blankets) -> Randomizer:
    dd = validate.integer("d", d_value, low=2)
    f = validate.real("f", f_value, low=0.0, low_open=True, high=(dd - 1) / dd, high_open=True)
    m = validate.integer("blankets", blankets, low=1)
    return Randomizer(f"mixdump(f={f},d={dd})", (1 - f) * (dd - 1) / f, float(BETA["mixdump"](f, dd)), (1 - f) * dd,
                      blankets=m, source=BETA["mixdump"].source)


def pure_dump(d_value, blankets) -> Randomizer:
    """pureDUMP (Li et al. 2023): the f = 0 limit of mixDUMP (p = inf, beta = 1, q = d)."""
    dd = validate.integer("d", d_value, low=2)
    m = validate.integer("blankets", blankets, low=1)
    return Randomizer(f"puredump(d={dd})", math.inf, 1.0, float(dd), blankets=m,
                      source="Wang et al. (2024), Section 4.3 (pureDUMP: mixDUMP at f = 0; docs/errata.md#wang2024-table-4)")


def from_pmfs(matrix, name: str = "custom") -> Randomizer:
    """The true (p, beta, q) of a finite randomizer given as a row-stochastic matrix.

    p = q = the largest ratio R[x, y] / R[x', y] over inputs and outputs, beta = the largest
    total variation between two rows; eps0 = log p. Rows must be probability vectors.
    """
    m = np.asarray(matrix, dtype=float)
    if m.ndim != 2 or m.shape[0] < 2:
        raise validate.DomainError(f"matrix must have at least two rows (inputs), got shape {m.shape}")
    for i, row in enumerate(m):
        validate.pmf(f"matrix[{i}]", row)
    ratio = 1.0
    beta = 0.0
    for a, b in itertools.permutations(range(m.shape[0]), 2):
        ra, rb = m[a], m[b]
        if np.any((ra > 0) & (rb == 0)):
            raise validate.DomainError(
                f"matrix rows {a} and {b} are not mutually absolutely continuous: the randomizer is not eps0-LDP")
        support = rb > 0
        # rounded up: a (p, beta) pair below the true values would not be a valid variation bound
        ratio = max(ratio, rounding.up(float(np.max(ra[support] / rb[support]))))
        # the total variation sum_{ra > rb} (ra - rb) summed exactly (fsum: correctly rounded)
        more = ra > rb
        tv = math.fsum(np.concatenate([ra[more], -rb[more]]).tolist())
        beta = max(beta, math.nextafter(tv, math.inf))
    if ratio == 1.0:
        raise validate.DomainError("matrix has identical rows: p = 1, nothing to amplify")
    uniform = all(abs(0.5 * float(np.abs(m[a] - m[b]).sum()) - beta) <= 1e-12
                  for a, b in itertools.combinations(range(m.shape[0]), 2))
    ratio, beta = _at_most_worst_case(ratio, beta)
    return Randomizer(name, ratio, beta, ratio, eps0=rounding.log_up(ratio), pmfs=m,
                      uniform_beta=uniform, source="exact pmfs")


def _covers(p: float, beta: float) -> bool:
    """True where beta <= (p - 1)/(p + 1) both in exact arithmetic on the floats (the randomizer
    is a valid variation pair) and in float64 (what :class:`Randomizer` checks and caps at)."""
    fp = fractions.Fraction(p)
    return beta <= (p - 1.0) / (p + 1.0) and fractions.Fraction(beta) <= (fp - 1) / (fp + 1)


def _at_most_worst_case(ratio: float, beta: float) -> tuple[float, float]:
    """(p, beta) with p >= ``ratio``, beta at least the true total variation and at most the real
    (p - 1)/(p + 1), given ``ratio`` >= the true largest ratio and ``beta`` >= the true total
    variation (each rounded up).

    The true total variation is at most (p* - 1)/(p* + 1) at the true ratio p*, so it never
    exceeds the real (ratio - 1)/(ratio + 1); but its rounded-up float can, and the float
    quotient can fall an ulp below the true value (binary randomized response: the worst case
    is attained). There beta is kept (at most the quotient rounded up) and p is raised until
    (p - 1)/(p + 1) covers it, exactly and in float64 (an ulp or two of beta: relatively
    (p^2 - 1)/(2p) times as many in p, 1e-11 at p = e^12).
    """
    if _covers(ratio, beta):
        return ratio, beta
    beta = min(beta, rounding.up((ratio - 1.0) / (ratio + 1.0), rel_err=2 * rounding.EPS))
    target = beta
    for _ in range(200):
        # (1 + b)/(1 - b) rounded up: 1 - b is exact for b >= 1/2 (Sterbenz) and within EPS/2 else
        p = max(ratio, rounding.up((1.0 + target) / (1.0 - target), rel_err=3 * rounding.EPS))
        if _covers(p, beta):
            return p, beta
        target = rounding.up(target, ulps=1)
    raise validate.DomainError(f"beta = {beta!r} cannot be covered by (p - 1)/(p + 1) at p >= {ratio!r}")


#: the randomizers the command line knows, by name: (factory, required parameter names)
REGISTRY: dict[str, tuple[Callable[..., Randomizer], tuple[str, ...]]] = {
    "general": (general_ldp, ("eps0",)),
    "binary-rr": (binary_rr, ("eps0",)),
    "grr": (grr, ("eps0", "d")),
    "unary-encoding": (unary_encoding, ("eps0", "d")),
    "subset-selection": (subset_selection, ("eps0", "d", "k")),
    "local-hash": (local_hash, ("eps0", "l")),
    "optimal-local-hash": (optimal_local_hash, ("eps0",)),
    "laplace": (laplace, ("eps0",)),
}
